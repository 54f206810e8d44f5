package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// peerSizes is the peer's hour 06:00-07:00 of job sizes: twelve jobs of
// research, eleven of 1 CPU and one of 2, 86 CPU-seconds in all.
func peerSizes() *fakeLive {
	f := peerUtil()
	f.now = peerNow
	const h = 1796018400 + 1900
	for i := range 10 {
		f.acct = append(f.acct, api.AcctJob{JobID: uint32(i + 1), Account: "research", CPUs: 1, StartTime: h, EndTime: h + 5})
	}
	f.acct = append(f.acct, api.AcctJob{JobID: 11, Account: "research", CPUs: 1, StartTime: h, EndTime: h + 6},
		api.AcctJob{JobID: 12, Account: "research", CPUs: 2, StartTime: h, EndTime: h + 15},
		api.AcctJob{JobID: 13, Account: "research", CPUs: 1}) // never ran
	return f
}

// TestSreportJobSizesPeer: sreport job SizesByAccount prints the peer's
// text.
func TestSreportJobSizesPeer(t *testing.T) {
	const start, end = "start=2026-11-30T06:00", "end=2026-11-30T07:00"
	const banner = "--------------------------------------------------------------------------------\n" +
		"Job Sizes 2026-11-30T06:00:00 - 2026-11-30T06:59:59 (3600 secs)\n"
	const defHeader = "  Cluster   Account     0-49 CPUs   50-249 CPUs  250-499 CPUs  500-999 CPUs  >= 1000 CPUs % of cluster \n" +
		"--------- --------- ------------- ------------- ------------- ------------- ------------- ------------ \n"
	tests := map[string]struct {
		args []string
		want string
	}{
		"default": {[]string{"job", "sizesbyaccount", start, end},
			banner + "Time reported in Minutes\n" + peerDashes + defHeader +
				"     acct      root             1             0             0             0             0      100.00% \n"},
		"grouping": {[]string{"job", "sizesbyaccount", "grouping=1,2,4", start, end},
			banner + "Time reported in Minutes\n" + peerDashes +
				"  Cluster   Account      0-0 CPUs      1-1 CPUs      2-3 CPUs     >= 4 CPUs % of cluster \n" +
				"--------- --------- ------------- ------------- ------------- ------------- ------------ \n" +
				"     acct      root             0             1             0             0      100.00% \n"},
		"individual parsable": {[]string{"-P", "job", "sizesbyaccount", "grouping=individual", start, end},
			banner + "Time reported in Minutes\n" + peerDashes +
				"Cluster|Account|1 CPUs|2 CPUs|% of cluster\nacct|root|1|0|100.00%\n"},
		"job count": {[]string{"-n", "job", "sizesbyaccount", "grouping=2", "printjobcount", start, end},
			"     acct      root            11             1      100.00% \n"},
		"job count banner": {[]string{"job", "sizesbyaccount", "printjobcount", start, end},
			banner + "Units are in number of jobs ran\n" + peerDashes + defHeader +
				"     acct      root            12             0             0             0             0      100.00% \n"},
		"percent": {[]string{"-t", "percent", "-n", "job", "sizesbyaccount", start, end},
			"     acct      root       100.00%         0.00%         0.00%         0.00%         0.00%      100.00% \n"},
		"flat view": {[]string{"-n", "job", "sizesbyaccount", "flatview", start, end},
			"     acct  research             1             0             0             0             0      100.00% \n"},
		"accounts": {[]string{"-n", "job", "sizesbyaccount", "accounts=research", start, end},
			"     acct  research             1             0             0             0             0      100.00% \n"},
		"an unreadable grouping": {[]string{"job", "sizesbyaccount", "grouping=abc", start, end},
			banner + "Time reported in Minutes\n" + peerDashes +
				"  Cluster   Account 0-4294967295  % of cluster \n" +
				"--------- --------- ------------- ------------ \n" +
				"     acct      root             1      100.00% \n"},
		"a descending grouping": {[]string{"-P", "-n", "job", "sizesbyaccount", "grouping=10,5", start, end},
			"acct|root|1|0|0|100.00%\n"},
		"minutes with percentages": {[]string{"-t", "minper", "-n", "job", "sizes", start, end},
			"     acct      root           1(100.00%)             0(0.00%)             0(0.00%)             0(0.00%)             0(0.00%)      100.00% \n"},
		"no jobs of the users, no line":  {[]string{"-n", "job", "sizes", "users=nobody", start, end}, ""},
		"no jobs in the window, no line": {[]string{"-n", "job", "sizes", "start=2026-11-29T06:00", "end=2026-11-29T07:00"}, ""},
		"another cluster, no line":       {[]string{"-n", "job", "sizes", "clusters=nosuch", start, end}, ""},
		"format": {[]string{"-n", "job", "sizes", "format=account,cluster", start, end},
			"     root      acct             1             0             0             0             0      100.00% \n"},
		"gpus": {[]string{"-T", "gres/gpu", "job", "sizesbyaccount", start, end},
			banner + "TRES type is gres/gpu\nTime reported in Minutes\n" + peerDashes +
				"  Cluster   Account     0-49 TRES   50-249 TRES  250-499 TRES  500-999 TRES  >= 1000 TRES % of cluster \n" +
				"--------- --------- ------------- ------------- ------------- ------------- ------------- ------------ \n" +
				"     acct      root             0             0             0             0             0        0.00% \n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(peerSizes(), peerNow)
			if code := Sreport(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("(-peer +loam):\n%s", diff)
			}
		})
	}
}

// TestSreportJobErrorsPeer: the peer's texts for bad job, user and
// reservation reports and for more than one TRES.
func TestSreportJobErrorsPeer(t *testing.T) {
	tests := map[string]struct {
		args   []string
		stderr string
	}{
		"job":         {[]string{"job", "bogus"}, "Not valid report bogus\nValid job reports are, \"SizesByAccount, SizesByAccountAndWcKey, and  SizesByWckey\"\n"},
		"user":        {[]string{"user", "bogus"}, "Not valid report bogus\nValid user reports are, \"Top\"\n"},
		"reservation": {[]string{"reservation", "bogus"}, "Not valid report bogus\nValid reservation reports are, \"Utilization\"\n"},
		"two TRES": {[]string{"-T", "gres/gpu,cpu", "job", "sizes"},
			" Job report only supports a single --tres type.\n Generate a separate report for each TRES type.\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(peerSizes(), peerNow)
			if code := Sreport(context.Background(), te.Env, tc.args); code != 1 || te.stderr.String() != tc.stderr {
				t.Errorf("exit %d stderr %q, peer: exit 1 stderr %q", code, te.stderr, tc.stderr)
			}
		})
	}
}
