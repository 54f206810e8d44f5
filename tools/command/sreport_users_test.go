package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// peerUsers is the peer's hour with user root's 86 CPU-seconds in
// account research.
func peerUsers() *fakeLive {
	f := peerUtil()
	f.now = peerNow
	f.acct = []api.AcctJob{
		{JobID: 1, Account: "research", UserName: "root", CPUs: 1, StartTime: 1796018400 + 1938, EndTime: 1796018400 + 1980},
		{JobID: 2, Account: "research", UserName: "root", CPUs: 2, StartTime: 1796018400 + 2000, EndTime: 1796018400 + 2022},
	}
	return f
}

// TestSreportUsersPeer: the per-account and per-user reports print the
// peer's text.
func TestSreportUsersPeer(t *testing.T) {
	const start, end = "start=2026-11-30T06:00", "end=2026-11-30T07:00"
	banner := func(title string) string {
		return "--------------------------------------------------------------------------------\n" +
			title + " 2026-11-30T06:00:00 - 2026-11-30T06:59:59 (3600 secs)\nUsage reported in CPU Minutes\n" + peerDashes
	}
	tests := map[string]struct {
		args []string
		want string
	}{
		"account utilization by user": {[]string{"cluster", "AccountUtilizationByUser", start, end},
			banner("Cluster/Account/User Utilization") +
				"  Cluster         Account     Login     Proper Name     Used   Energy \n" +
				"--------- --------------- --------- --------------- -------- -------- \n" +
				"     acct            root                                  1        0 \n" +
				"     acct        research                                  1        0 \n" +
				"     acct        research      root            root        1        0 \n"},
		"user utilization by account": {[]string{"cluster", "UserUtilizationByAccount", start, end},
			banner("Cluster/User/Account Utilization") +
				"  Cluster     Login     Proper Name         Account     Used   Energy \n" +
				"--------- --------- --------------- --------------- -------- -------- \n" +
				"     acct      root            root        research        1        0 \n"},
		"percent, energy too": {[]string{"-t", "percent", "cluster", "AccountUtilizationByUser", start, end},
			"--------------------------------------------------------------------------------\n" +
				"Cluster/Account/User Utilization 2026-11-30T06:00:00 - 2026-11-30T06:59:59 (3600 secs)\nUsage reported in Percentage of Total\n" + peerDashes +
				"  Cluster         Account     Login     Proper Name     Used   Energy \n" +
				"--------- --------------- --------- --------------- -------- -------- \n" +
				"     acct            root                              0.02%    0.00% \n" +
				"     acct        research                              0.02%    0.00% \n" +
				"     acct        research      root            root    0.02%    0.00% \n"},
		"hours with percentages": {[]string{"-t", "hourper", "-n", "cluster", "UserUtilizationByAccount", start, end},
			"     acct      root            root        research          0(0.02%)          0(0.00%) \n"},
		"a line per TRES, no energy": {[]string{"-T", "gres/gpu,cpu", "cluster", "AccountUtilizationByUser", start, end},
			"--------------------------------------------------------------------------------\n" +
				"Cluster/Account/User Utilization 2026-11-30T06:00:00 - 2026-11-30T06:59:59 (3600 secs)\nUsage reported in TRES Minutes\n" + peerDashes +
				"  Cluster         Account     Login     Proper Name      TRES Name     Used \n" +
				"--------- --------------- --------- --------------- -------------- -------- \n" +
				"     acct            root                                 gres/gpu        0 \n" +
				"     acct            root                                      cpu        1 \n" +
				"     acct        research                                 gres/gpu        0 \n" +
				"     acct        research                                      cpu        1 \n" +
				"     acct        research      root            root       gres/gpu        0 \n" +
				"     acct        research      root            root            cpu        1 \n"},
		"an empty window has no root line": {[]string{"-n", "cluster", "AccountUtilizationByUser", "start=2026-11-29T00:00", "end=2026-11-29T01:00"}, ""},
		"format, usage widths ignored": {[]string{"-n", "cluster", "AccountUtilizationByUser", start, end, "format=login,used%12,account%20,prop,ene,cl"},
			"                 1                 root                        0      acct \n" +
				"                 1             research                        0      acct \n" +
				"     root        1             research            root        0      acct \n"},
		"text cut with a plus": {[]string{"-n", "cluster", "AccountUtilizationByUser", start, end, "format=account%3,login%2,cluster%2"},
			"ro+    a+ \nre+    a+ \nre+ r+ a+ \n"},
		"format with a TRES has no TRES Name": {[]string{"-T", "cpu", "-P", "user", "top", start, end, "format=used,login"},
			"--------------------------------------------------------------------------------\n" +
				"Top 10 Users 2026-11-30T06:00:00 - 2026-11-30T06:59:59 (3600 secs)\nUsage reported in TRES Minutes\n" + peerDashes +
				"Used|Login\n1|root\n"},
		"top usage parsable": {[]string{"-P", "user", "topusage", start, end},
			banner("Top 10 Users") + "Cluster|Login|Proper Name|Account|Used|Energy\nacct|root|root|research|1|0\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(peerUsers(), peerNow)
			if code := Sreport(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("(-peer +loam):\n%s", diff)
			}
		})
	}
}

// TestSreportUsersBadField: the peer's text for an unknown field.
func TestSreportUsersBadField(t *testing.T) {
	te := liveEnv(peerUsers(), peerNow)
	if code := Sreport(context.Background(), te.Env, []string{"-n", "user", "top", "format=bogus"}); code != 1 || te.stderr.String() != " Unknown field 'bogus'\n" {
		t.Errorf("exit %d stderr %q", code, te.stderr)
	}
}

// TestSreportTopCount: TopCount= keeps the largest users; Group sums a
// user's accounts into one line (Slurm's man page: "Default is a separate
// entry for each user and account reference").
func TestSreportTopCount(t *testing.T) {
	f := peerUtil()
	f.acct = []api.AcctJob{
		{Account: "a", UserName: "u1", CPUs: 1, StartTime: 1796018400, EndTime: 1796018400 + 600},
		{Account: "b", UserName: "u1", CPUs: 1, StartTime: 1796018400, EndTime: 1796018400 + 600},
		{Account: "a", UserName: "u2", CPUs: 1, StartTime: 1796018400, EndTime: 1796018400 + 900},
		{Account: "a", UserName: "u3", CPUs: 1, StartTime: 1796018400, EndTime: 1796018400 + 60},
		// still running at 06:10: 10 minutes so far, not to the window's end
		{Account: "c", UserName: "u4", CPUs: 1, StartTime: 1796018400},
	}
	f.now = peerNow
	te := liveEnv(f, peerNow)
	if code := Sreport(context.Background(), te.Env, []string{"-n", "-P", "user", "top", "topcount=2", "group",
		"start=2026-11-30T06:00", "end=2026-11-30T07:00"}); code != 0 {
		t.Fatal(te.stderr)
	}
	want := "acct|u4|u4|c|60|0\nacct|u1|u1|a,b|20|0\n" // u4 ran the whole hour by 07:20
	if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	te = liveEnv(f, peerNow)
	Sreport(context.Background(), te.Env, []string{"-n", "user", "top", "topcount=2", "group", "format=account%2,used",
		"start=2026-11-30T06:00", "end=2026-11-30T07:00"})
	if diff := cmp.Diff(" c       60 \na+       20 \n", te.stdout.String()); diff != "" {
		t.Errorf("a cut account list (-want +got):\n%s", diff)
	}
	te = liveEnv(f, peerNow)
	Sreport(context.Background(), te.Env, []string{"-n", "-P", "user", "top", "topcount=2", "users=u1,u3",
		"start=2026-11-30T06:00", "end=2026-11-30T07:00"})
	if diff := cmp.Diff("acct|u1|u1|a|10|0\nacct|u1|u1|b|10|0\n", te.stdout.String()); diff != "" {
		t.Errorf("a line per user and account (-want +got):\n%s", diff)
	}
	te = liveEnv(f, peerNow)
	f.now = 1796018400 + 600
	Sreport(context.Background(), te.Env, []string{"-n", "-P", "user", "top", "topcount=4", "start=2026-11-30T06:00", "end=2026-11-30T07:00"})
	if got := te.stdout.String(); !strings.Contains(got, "acct|u4|u4|c|10|0\n") {
		t.Errorf("a running job:\n%s", got)
	}
}
