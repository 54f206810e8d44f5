package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSacctmgrWritesRefused: every command that would change Slurm's
// database fails naming tenants.conf and scontrol reconfigure.
func TestSacctmgrWritesRefused(t *testing.T) {
	tests := map[string][]string{
		"add account":        {"-i", "add", "account", "x"},
		"modify user":        {"modify", "user", "bob", "set", "maxjobs=3"},
		"delete abbreviated": {"del", "user", "bob"},
		"archive dump":       {"archive", "dump"},
		"load a file":        {"load", "file=x.cfg"},
		"dump the cluster":   {"dump", "acct"},
	}
	for name, args := range tests {
		t.Run(name, func(t *testing.T) {
			got := runMgr(peerAssocs(), args)
			if !strings.HasSuffix(got, "rc=1\n") || !strings.Contains(got, "tenants.conf") ||
				!strings.Contains(got, "scontrol reconfigure") {
				t.Errorf("sacctmgr %v:\n%s", args, got)
			}
		})
	}
}

// TestSacctmgrLoam: behaviour the peer captures do not cover.
func TestSacctmgrLoam(t *testing.T) {
	tests := map[string]struct {
		args []string
		want string
	}{
		"tree under a user filter has no ancestors to indent under": {
			[]string{"-nP", "show", "assoc", "tree", "user=alice", "format=account,user"},
			"product|alice\nrc=0\n"},
		"tree of one account starts at the account": {
			[]string{"-p", "show", "assoc", "tree", "account=product", "format=acc,user,maxjobs"},
			"Account|User|MaxJobs|\nproduct||100|\n product|alice|100|\n product|bob|20|\nrc=0\n"},
		"user= selects the accounts' own associations": {
			[]string{"-nP", "show", "assoc", "user=", "format=account,share"},
			"root|1\nproduct|30\nresearch|1\nverylongaccountname22|20\nrc=0\n"},
		"a user's associations by name, then account": {
			[]string{"-nP", "list", "user", "-s", "bob", "format=user,defaultaccount,account"},
			"bob|product|product\nbob|product|verylongaccountname22\nrc=0\n"},
		// Conditions are read by slurm_addto_char_list: lowercased,
		// quotes dropped, empty items and a trailing comma ignored.
		"conditions lowercased": {
			[]string{"-nP", "show", "user", "names=BOB,Alice", "format=user"},
			"alice\nbob\nrc=0\n"},
		"a trailing comma adds no empty item": {
			[]string{"-nP", "show", "assoc", "account=product,", "user=alice,", "format=account,user"},
			"product|alice\nrc=0\n"},
		"a quoted list": {
			[]string{"-nP", "show", "account", `"Research,Product"`, "format=account"},
			"product\nresearch\nrc=0\n"},
		"statistics are not kept": {
			[]string{"show", "stats"},
			"sacctmgr: error: Loam keeps no stats: it has no accounting database (see sacct and sreport)\nrc=1\n"},
		"commands from standard input": {nil,
			"sacctmgr: show qos format=name\n      Name \n---------- \n    normal \nsacctmgr: frob\ninvalid keyword: frob\nsacctmgr: \nrc=1\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := peerAssocs()
			var got string
			if tc.args == nil {
				got = runMgrInput(f, "show qos format=name\nfrob\n")
			} else {
				got = runMgr(f, tc.args)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzSacctmgr: any command line ends with exit 0 or 1, never a panic.
func FuzzSacctmgr(f *testing.F) {
	for _, seed := range []string{"show assoc tree format=account%-3,user%0", "list user -s bob where account=",
		"show tres name=gpu id=x", "show qos format=,,", "-nP show cluster format=rpc%-1", "show", "%"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		got := runMgr(peerAssocs(), strings.Fields(line))
		if !strings.HasSuffix(got, "rc=0\n") && !strings.HasSuffix(got, "rc=1\n") {
			t.Errorf("sacctmgr %s: %s", line, got)
		}
	})
}
