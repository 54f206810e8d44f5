package command

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// acctStatFixture has the shapes of the jobs captured on a Slurm cluster
// that gathers usage (testdata/peer/sstat-acct): job 39 runs its batch
// step, step 0 (two tasks on cpu001) and step 1 (one task); job 40 runs
// step 0 over cpu001 and cpu002, one task each.
func acctStatFixture() *fakeStat {
	task := func(id int, cpu, rss, vm int64, pid int) api.TaskUsage {
		return api.TaskUsage{Task: id, UserUsec: cpu, SysUsec: 10_000, MaxRSS: rss, MaxVM: vm, Pids: []int{pid}}
	}
	one := func(node string, tasks ...api.TaskUsage) api.NodeUsage {
		return api.NodeUsage{Node: node, Tasks: tasks}
	}
	job39 := []api.StepStat{
		{JobID: 39, StepID: "batch", Nodes: "cpu001", Tasks: 1, Usage: api.StepUsage{Nodes: []api.NodeUsage{
			one("cpu001", task(0, 20_000, 20884<<10, 438128<<10, 27801))}}},
		{JobID: 39, StepID: "0", Nodes: "cpu001", Tasks: 2, Usage: api.StepUsage{Nodes: []api.NodeUsage{
			one("cpu001", task(0, 3_100_000, 3132<<10, 4360<<10, 27830), task(1, 3_200_000, 3212<<10, 4360<<10, 27831))}}},
		{JobID: 39, StepID: "1", Nodes: "cpu001", Tasks: 1, Usage: api.StepUsage{Nodes: []api.NodeUsage{
			one("cpu001", task(0, 300_000, 4904<<10, 7280<<10, 27833))}}},
	}
	job40 := []api.StepStat{{JobID: 40, StepID: "0", Nodes: "cpu[001-002]", Tasks: 2, Usage: api.StepUsage{Nodes: []api.NodeUsage{
		one("cpu001", task(0, 6_500_000, 3156<<10, 4360<<10, 27842)),
		one("cpu002", task(1, 6_400_000, 3108<<10, 4360<<10, 27851)),
	}}}}
	return &fakeStat{fakeController: &fakeController{}, running: map[uint32][]api.StepStat{39: job39, 40: job40}}
}

var (
	// The peer's fs/disk (Loam does not measure disk I/O) with its comma.
	sstatDiskKey = regexp.MustCompile(`fs/disk=[^,|\n]*,?`)
	sstatTime    = regexp.MustCompile(`\b\d\d:\d\d:\d\d\b`)
	sstatNumber  = regexp.MustCompile(`\b\d+(\.\d+)?[KMGTP]?\b`)
)

// sstatForm keeps only the form of -p/-P output: the peer's fs/disk
// keys go, and times and numbers (sizes, pids, task ids) become T and N.
func sstatForm(s string) string {
	s = sstatDiskKey.ReplaceAllString(s, "")
	s = strings.NewReplacer(",|", "|", ",\n", "\n").Replace(s)
	s = sstatTime.ReplaceAllString(s, "T")
	return sstatNumber.ReplaceAllString(s, "N")
}

// TestSstatFormsMatchTheAccountingPeer: the usage fields of running
// steps in the forms of a Slurm cluster that gathers usage: TRES strings'
// keys and order (energy and pages included; sstat's task strings pass
// the task through each TRES's format), the energy and CPU frequency
// fields, -i's pid lines without figures, and --noconvert's bytes.
func TestSstatFormsMatchTheAccountingPeer(t *testing.T) {
	const tres = "tresusageinave,tresusageinmax,tresusageinmaxnode,tresusageinmaxtask,tresusageinmin,tresusageinminnode,tresusageinmintask,tresusageintot,tresusageoutave,tresusageoutmax,tresusageoutmaxnode,tresusageoutmaxtask,tresusageoutmin,tresusageoutminnode,tresusageoutmintask,tresusageouttot"
	tests := map[string]struct {
		args []string
		peer string
	}{
		"every step's TRES strings and fixed fields": {
			[]string{"-a", "-P", "-j", "39", "-o", "jobid," + tres + ",maxpages,maxpagesnode,maxpagestask,avepages,avecpufreq,consumedenergy,reqcpufreqmin"},
			"steps-tres.txt"},
		"a two-node step's": {[]string{"-P", "-j", "40", "-o", "jobid," + tres}, "two-node-tres.txt"},
		"-i prints pids, no figures": {
			[]string{"-i", "-p", "-j", "40", "-o", "ntasks,maxrss,avecpufreq,consumedenergy,reqcpufreq,maxpages,mincpu,tresusageinmax"},
			"pids.txt"},
		"--noconvert prints bytes": {
			[]string{"-P", "--noconvert", "-j", "40", "-o", "jobid,maxrss,averss,maxvmsize,avevmsize,maxpages,tresusageinmax,tresusageintot"},
			"noconvert.txt"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			out, errOut, code := runSstat(t, acctStatFixture(), tc.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			want := sstatForm(readSstatPeer(t, "../sstat-acct/"+tc.peer))
			if diff := cmp.Diff(want, sstatForm(out)); diff != "" {
				t.Errorf("(-peer +loam):\n%s", diff)
			}
		})
	}
}

// TestSstatValuesInThePeersForms: the values behind the forms, where the
// form alone does not show them: exact sizes, bytes with --noconvert,
// task ids through the cpu's time format, the first node's energy.
func TestSstatValuesInThePeersForms(t *testing.T) {
	tests := map[string]struct {
		args []string
		want string
	}{
		"sizes convert when exact": {[]string{"-n", "-P", "-j", "40", "-o", "maxrss,averss,tresusageinmin"},
			"3156K|3132K|cpu=00:00:06,energy=0,mem=3108K,pages=0,vmem=4360K\n"},
		"--noconvert: bytes": {[]string{"-n", "-P", "--noconvert", "-j", "40", "-o", "maxrss,averss,tresusageintot"},
			"3231744|3207168|cpu=00:00:12,energy=0,mem=6414336,pages=0,vmem=8929280\n"},
		"task strings: ids through each TRES's format": {[]string{"-n", "-P", "-j", "40", "-o", "tresusageinmaxtask,tresusageinmintask"},
			"cpu=00:00:00,mem=0,pages=0,vmem=0|cpu=00:00:00,mem=1,pages=0,vmem=0\n"},
		"node strings: energy on the first node": {[]string{"-n", "-P", "-j", "40", "-o", "tresusageinminnode,tresusageoutmaxnode"},
			"cpu=cpu002,energy=cpu001,mem=cpu002,pages=cpu001,vmem=cpu001|energy=cpu001\n"},
		"the batch step requested frequency 0": {[]string{"-n", "-P", "-j", "39.batch", "-o", "reqcpufreq,reqcpufreqgov,consumedenergyraw"},
			"0|0|0\n"},
		"-o lists add up": {[]string{"-n", "-P", "-j", "39.batch", "-o", "jobid,ntasks", "-o", "jobid"},
			"39.batch|1|39.batch\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			out, errOut, code := runSstat(t, acctStatFixture(), tc.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if diff := cmp.Diff(tc.want, out); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSstatStepOfAJobNotRunning: a step asked for by name of a job that
// pends or ended is "not found running", as the peer words it (its job
// 45 held, 42 ended); without a step the job has "No steps running".
func TestSstatStepOfAJobNotRunning(t *testing.T) {
	header := "JobID        \n------------ \n"
	tests := map[string]struct {
		args   []string
		stderr string
	}{
		"a numbered step": {[]string{"-j", "14706.0", "-o", "jobid"}, "sstat: error: StepId=14706.0 not found running.\n"},
		"the batch step":  {[]string{"-j", "14706.batch", "-o", "jobid"}, "sstat: error: StepId=14706.batch not found running.\n"},
		"no step":         {[]string{"-j", "14706", "-o", "jobid"}, "sstat: error: No steps running for job 14706\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			out, errOut, code := runSstat(t, statFixture(), tc.args...)
			if diff := cmp.Diff(header, out); diff != "" || code != 0 {
				t.Errorf("exit %d, stdout (-want +got):\n%s", code, diff)
			}
			if diff := cmp.Diff(tc.stderr, errOut); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}
