package command

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// peerUtil is the accounting peer's hour 2026-11-30T06:00-07:00 UTC:
// 320 CPUs and 32 GPUs up for 27.75 minutes, 86 CPU-seconds allocated.
// The peer also had 17 planned seconds, which Loam has no counterpart
// of: the CPU capacity here is 20 seconds short of the peer's so that
// idle and reported time round to the peer's numbers.
const peerNow = 1796023200 // 2026-11-30T07:20:00Z

func peerUtil() *fakeLive {
	return &fakeLive{fakeController: &fakeController{}, util: api.UtilReport{Cluster: "acct",
		Start: 1796018400, End: 1796022000, CPUCapacity: 532780, CPUAlloc: 86, GPUCapacity: 53280}}
}

const peerBanner = "--------------------------------------------------------------------------------\n" +
	"Cluster Utilization 2026-11-30T06:00:00 - 2026-11-30T06:59:59\n"
const peerDashes = "--------------------------------------------------------------------------------\n"

// TestSreportUtilizationPeer: sreport cluster utilization prints the
// peer's text (Slurm 22.05.8 with slurmdbd).
func TestSreportUtilizationPeer(t *testing.T) {
	const start, end = "start=2026-11-30T06:00", "end=2026-11-30T07:00"
	tests := map[string]struct {
		args []string
		want string
	}{
		"default columns, truncated headers": {[]string{"cluster", "utilization", start, end},
			peerBanner + "Usage reported in CPU Minutes\n" + peerDashes +
				"  Cluster Allocate     Down PLND Dow     Idle  Planned Reported \n" +
				"--------- -------- -------- -------- -------- -------- -------- \n" +
				"     acct        1        0        0     8878        0     8880 \n"},
		"a TRES list adds TRES Name": {[]string{"-T", "gres/gpu", "cluster", "utilization", start, end},
			peerBanner + "Usage reported in TRES Minutes\n" + peerDashes +
				"  Cluster      TRES Name Allocate     Down PLND Dow     Idle  Planned Reported \n" +
				"--------- -------------- -------- -------- -------- -------- -------- -------- \n" +
				"     acct       gres/gpu        0        0        0      888        0      888 \n"},
		"parsable keeps the banner and full names": {[]string{"-p", "cluster", "utilization", start, end},
			peerBanner + "Usage reported in CPU Minutes\n" + peerDashes +
				"Cluster|Allocated|Down|PLND Down|Idle|Planned|Reported|\n" +
				"acct|1|0|0|8878|0|8880|\n"},
		"format has no TRES Name, rows in -T order": {[]string{"-T", "gres/gpu,cpu", "-P", "cluster", "utilization", start, end,
			"format=reported,cluster"},
			peerBanner + "Usage reported in TRES Minutes\n" + peerDashes +
				"Reported|Cluster\n888|acct\n8880|acct\n"},
		"all TRES Loam accounts for, in Slurm's order": {[]string{"-T", "all", "-n", "cluster", "utilization", start, end},
			"     acct            cpu        1        0        0     8878        0     8880 \n" +
				"     acct       gres/gpu        0        0        0      888        0      888 \n"},
		"another cluster":   {[]string{"-n", "cluster", "utilization", start, end, "clusters=nosuch"}, ""},
		"the named cluster": {[]string{"-n", "cluster", "utilization", start, end, "clusters=ACCT", "format=cluster"}, "     acct \n"},
		"widths apply to text columns only": {[]string{"-n", "cluster", "utilization", start, end, "format=cluster%12,allocated%12,reported%3"},
			"        acct        1     8880 \n"},
		"prefixes of fields": {[]string{"-n", "cluster", "util", start, end, "format=cl,all,down,res,over"},
			"     acct        1        0        0        0 \n"},
		"minutes with percentages": {[]string{"-t", "minper", "-P", "cluster", "utilization", start, end, "format=cluster,allocated,idle"},
			peerBanner + "Usage reported in CPU Minutes/Percentage of Total\n" + peerDashes +
				"Cluster|Allocated|Idle\nacct|1(0.02%)|8878(99.98%)\n"},
		"hours with percentages widen by 9": {[]string{"-t", "hourper", "-n", "cluster", "utilization", start, end, "format=cluster,allocated,idle"},
			"     acct          0(0.02%)       148(99.98%) \n"},
		"seconds": {[]string{"-t", "sec", "-n", "cluster", "utilization", start, end, "format=cluster,allocated"},
			"     acct       86 \n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(peerUtil(), peerNow)
			if code := Sreport(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("(-peer +loam):\n%s", diff)
			}
		})
	}
}

// TestSreportWindowPeer: the window is rounded to hours as the peer
// rounds it; without Start it begins at yesterday's midnight, without End
// it ends at today's.
func TestSreportWindowPeer(t *testing.T) {
	tests := map[string]struct {
		args       []string
		start, end string
	}{
		"rounded to the nearest hour, at least one": {[]string{"start=2026-11-30T05:40", "end=2026-11-30T06:20"},
			"2026-11-30T06:00:00", "2026-11-30T07:00:00"},
		"rounded outwards":        {[]string{"start=2026-11-30T05:20", "end=2026-11-30T06:40"}, "2026-11-30T05:00:00", "2026-11-30T07:00:00"},
		"end now":                 {[]string{"start=2026-11-30T05:20", "end=now"}, "2026-11-30T05:00:00", "2026-11-30T07:00:00"},
		"no start":                {[]string{"end=2026-11-30T05:20"}, "2026-11-29T00:00:00", "2026-11-30T05:00:00"},
		"default is yesterday":    {nil, "2026-11-29T00:00:00", "2026-11-30T00:00:00"},
		"an end before the start": {[]string{"start=2026-11-30T07:00", "end=2026-11-30T05:00"}, "2026-11-30T07:00:00", "2026-11-30T08:00:00"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := peerUtil()
			te := liveEnv(f, peerNow)
			if code := Sreport(context.Background(), te.Env, append([]string{"cluster", "utilization"}, tc.args...)); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if len(f.reportQ) != 1 {
				t.Fatalf("queries %v", f.reportQ)
			}
			got := [2]string{unixUTC(f.reportQ[0].Start), unixUTC(f.reportQ[0].End)}
			if diff := cmp.Diff([2]string{tc.start, tc.end}, got); diff != "" {
				t.Errorf("window (-peer +loam):\n%s", diff)
			}
		})
	}
}

// TestSreportErrorsPeer: the peer's texts and exit codes for bad
// keywords, reports, conditions, TRES and time formats.
func TestSreportErrorsPeer(t *testing.T) {
	tests := map[string]struct {
		args       []string
		code       int
		stderr     string
		wantReport bool
	}{
		"an unknown keyword":             {[]string{"bogus", "utilization"}, 1, "invalid keyword: bogus\n", false},
		"a keyword alone":                {[]string{"cluster"}, 1, "too few arguments for keyword:cluster\n", false},
		"c is no keyword":                {[]string{"c", "util"}, 1, "invalid keyword: c\n", false},
		"r is no keyword":                {[]string{"r", "util"}, 1, "invalid keyword: r\n", false},
		"cl is cluster":                  {[]string{"cl", "util"}, 0, "", true},
		"ua is UserUtilizationByAccount": {[]string{"cluster", "ua"}, 0, "", true},
		"au is AccountUtilizationByUser": {[]string{"cluster", "au"}, 0, "", true},
		"users is no report": {[]string{"cluster", "users"}, 1, "Not valid report users\nValid cluster reports are, " +
			`"AccountUtilizationByUser", "UserUtilizationByAccount", "UserUtilizationByWckey", "Utilization", and "WCKeyUtilizationByUser"` + "\n", false},
		"an unknown report": {[]string{"cluster", "bogus"}, 1, "Not valid report bogus\nValid cluster reports are, " +
			`"AccountUtilizationByUser", "UserUtilizationByAccount", "UserUtilizationByWckey", "Utilization", and "WCKeyUtilizationByUser"` + "\n", false},
		"no valid TRES": {[]string{"-T", "bogus", "cluster", "util"}, 1, "sreport: fatal: No valid TRES given\n", false},
		"an unknown condition still reports": {[]string{"cluster", "utilization", "bogus=1"}, 1,
			" Unknown condition: bogus=1\nUse keyword set to modify value\n", true},
		"a word without = is ignored":       {[]string{"cluster", "utilization", "foo"}, 0, "", true},
		"an unknown time format is minutes": {[]string{"-t", "bogus", "cluster", "utilization"}, 0, "unknown time format bogus", true},
		"an unknown field":                  {[]string{"cluster", "utilization", "format=bogus"}, 1, " Unknown field 'bogus'\n", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(peerUtil(), peerNow)
			code := Sreport(context.Background(), te.Env, tc.args)
			if code != tc.code || te.stderr.String() != tc.stderr {
				t.Errorf("exit %d stderr %q, peer: exit %d stderr %q", code, te.stderr, tc.code, tc.stderr)
			}
			if got := te.stdout.Len() > 0; got != tc.wantReport {
				t.Errorf("report printed: %v, peer: %v\n%s", got, tc.wantReport, te.stdout)
			}
		})
	}
}

func unixUTC(sec int64) string { return time.Unix(sec, 0).UTC().Format("2006-01-02T15:04:05") }
