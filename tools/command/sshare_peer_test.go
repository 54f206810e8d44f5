package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// peerShares is the accounting peer's association tree in Loam's terms:
// tenant research with user root, no usage yet.
func peerShares() *fakeLive {
	return &fakeLive{fakeController: &fakeController{}, shares: api.SharesResponse{Rows: []api.ShareRow{
		{Account: "research", RawShares: 1, NormShares: 0.5},
		{Account: "research", User: "root", RawShares: 1, NormShares: 1, FairShare: 1},
	}}}
}

// TestSsharePeerShape: the root, tenant and user lines have the shape
// Slurm 22.05's sshare gives them (the peer's text, less its root user
// line under the root account, which Loam's tree has no counterpart of).
func TestSsharePeerShape(t *testing.T) {
	tests := map[string]struct {
		args []string
		want string
	}{
		"default columns, root and account lines blank where Slurm's are": {[]string{"-a"},
			"Account                    User  RawShares  NormShares    RawUsage  EffectvUsage  FairShare \n" +
				"-------------------- ---------- ---------- ----------- ----------- ------------- ---------- \n" +
				"root                                          0.000000           0      1.000000            \n" +
				" research                                1    0.500000           0      0.000000            \n" +
				"  research                 root          1    1.000000           0      0.000000   1.000000 \n"},
		"parsable2": {[]string{"-P", "-a"},
			"Account|User|RawShares|NormShares|RawUsage|EffectvUsage|FairShare\n" +
				"root|||0.000000|0|1.000000|\n" +
				" research||1|0.500000|0|0.000000|\n" +
				"  research|root|1|1.000000|0|0.000000|1.000000\n"},
		"parsable without header": {[]string{"-p", "-n"},
			"root|||0.000000|0|1.000000||\n" +
				" research||1|0.500000|0|0.000000||\n" +
				"  research|root|1|1.000000|0|0.000000|1.000000|\n"},
		"accounts start the tree at the account": {[]string{"-A", "research", "-o", "account,user%5,fairshare"},
			"Account               User  FairShare \n" +
				"-------------------- ----- ---------- \n" +
				"research                              \n" +
				" research             root   1.000000 \n"},
		"words that are not options are ignored": {[]string{"-n", "-P", "bogus", "-a"},
			"root|||0.000000|0|1.000000|\n" +
				" research||1|0.500000|0|0.000000|\n" +
				"  research|root|1|1.000000|0|0.000000|1.000000\n"},
		"users only are not indented": {[]string{"-U", "-n"},
			"research                   root          1    1.000000           0      0.000000   1.000000 \n"},
		"long columns on the root": {[]string{"-a", "-n", "-o", "Account,LevelFS,NormUsage"},
			"root                                        \n" +
				" research                   inf    0.000000 \n" +
				"  research                  inf    0.000000 \n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(peerShares(), 1795953600)
			if code := Sshare(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("(-peer +loam):\n%s", diff)
			}
		})
	}
}

// TestSshareHelpFormat: -e lists the fields sorted, four to a line, in
// Slurm's 17-character cells.
func TestSshareHelpFormat(t *testing.T) {
	te := liveEnv(peerShares(), 1795953600)
	if code := Sshare(context.Background(), te.Env, []string{"-e"}); code != 0 {
		t.Fatal(te.stderr)
	}
	want := "Account           Borrowed          EffectvUsage      FairShare        \n" +
		"GrpTRES           GrpTRESMins       Guarantee         InUse            \n" +
		"Lent              LevelFS           NormShares        NormUsage        \n" +
		"RawShares         RawUsage          TRESRunMins       User             \n"
	if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestSshareWidthsPeer: a value wider than its column is cut with a '+'
// and a negative %width left-justifies, as on the peer (whose extra root
// user and sub-account lines Loam's flat tenants have no counterpart of).
func TestSshareWidthsPeer(t *testing.T) {
	f := &fakeLive{fakeController: &fakeController{}, shares: api.SharesResponse{Rows: []api.ShareRow{
		{Account: "product", RawShares: 30},
		{Account: "product", User: "alice", RawShares: 2},
		{Account: "verylongaccountname22", RawShares: 20},
		{Account: "verylongaccountname22", User: "bob", RawShares: 1},
	}}}
	tests := map[string]struct {
		args []string
		want string
	}{
		"long names cut with a plus, headers cut plain": {[]string{"-a", "-o", "account,user,rawshares%4,grptresmins%12"},
			"Account                    User RawS  GrpTRESMins \n" +
				"-------------------- ---------- ---- ------------ \n" +
				"root                                              \n" +
				" product                          30              \n" +
				"  product                 alice    2              \n" +
				" verylongaccountnam+              20              \n" +
				"  verylongaccountna+        bob    1              \n"},
		"negative widths left-justify": {[]string{"-a", "-o", "account%-8,User%-12"},
			"Account  User         \n" +
				"-------- ------------ \n" +
				"root                  \n" +
				" product              \n" +
				"  produ+ alice        \n" +
				" verylo+              \n" +
				"  veryl+ bob          \n"},
		"parsable is never cut": {[]string{"-a", "-n", "-P", "-o", "account%5,user%2"},
			"root|\n product|\n  product|alice\n verylongaccountname22|\n  verylongaccountname22|bob\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(f, 1795953600)
			if code := Sshare(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("(-peer +loam):\n%s", diff)
			}
		})
	}
}
