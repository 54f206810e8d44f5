package command

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// fakeStat is a controller that also answers sstat: running jobs by id,
// each with its running steps (StepID "batch" for the batch step).
type fakeStat struct {
	*fakeController
	running map[uint32][]api.StepStat
	pending map[uint32]bool // known jobs without running steps
	asked   []api.StepStatRequest
}

var _ StatController = (*fakeStat)(nil)

// StepStat selects steps as the controller does (usage.go there).
func (f *fakeStat) StepStat(_ context.Context, req *api.StepStatRequest) (*api.StepStatResponse, error) {
	f.asked = append(f.asked, *req)
	steps, ok := f.running[req.JobID]
	if !ok {
		if f.pending[req.JobID] {
			return &api.StepStatResponse{NoSteps: true}, nil
		}
		return nil, api.NewError(api.CodeInvalidJobID)
	}
	out := &api.StepStatResponse{Steps: []api.StepStat{}}
	for _, s := range steps {
		switch {
		case req.Step != "" && s.StepID == req.Step,
			req.Step == "" && req.All,
			req.Step == "" && s.StepID != "batch" && len(out.Steps) == 0:
			out.Steps = append(out.Steps, s)
		}
	}
	return out, nil
}

// statFixture: job 14707 runs its batch step and step 0 (two tasks on
// cpu001, one on cpu002); job 14705 only its batch step; 14706 pends.
func statFixture() *fakeStat {
	step0 := api.StepStat{JobID: 14707, StepID: "0", Nodes: "cpu[001-002]", Tasks: 3, Usage: api.StepUsage{Nodes: []api.NodeUsage{
		{Node: "cpu001", MemPeak: 90 << 20, Tasks: []api.TaskUsage{
			{Task: 0, UserUsec: 2_500_000, SysUsec: 500_000, MaxRSS: 1294336, MaxVM: 215204 << 10, Pids: []int{26949}},
			{Task: 1, UserUsec: 61_000_000, SysUsec: 1_000_000, MaxRSS: 50 << 20, MaxVM: 300 << 20, Pids: []int{26950, 26951}},
		}},
		{Node: "cpu002", Tasks: []api.TaskUsage{
			{Task: 2, UserUsec: 4_000_000, SysUsec: 0, MaxRSS: 3 << 19, MaxVM: 200 << 20, Pids: []int{4410}},
		}},
	}}}
	batch := api.StepStat{JobID: 14707, StepID: "batch", Nodes: "cpu001", Tasks: 1, Usage: api.StepUsage{Nodes: []api.NodeUsage{
		{Node: "cpu001", Tasks: []api.TaskUsage{{Task: 0, UserUsec: 10_000, SysUsec: 20_000, MaxRSS: 7408 << 10, MaxVM: 20 << 20, Pids: []int{26920, 26923}}}},
	}}}
	lone := api.StepStat{JobID: 14705, StepID: "batch", Nodes: "cpu001", Tasks: 1}
	return &fakeStat{fakeController: &fakeController{},
		running: map[uint32][]api.StepStat{14707: {batch, step0}, 14705: {lone}},
		pending: map[uint32]bool{14706: true}}
}

func runSstat(t *testing.T, f *fakeStat, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	te := newTestEnv(f.fakeController, 1795980220)
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	code = Sstat(context.Background(), te.Env, args)
	return te.stdout.String(), te.stderr.String(), code
}

func readSstatPeer(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/peer/sstat/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// headLines is the first n lines of s.
func headLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	return strings.Join(lines[:min(n, len(lines))], "")
}

// TestSstatLayoutMatchesThePeer: headers, widths, justification and the
// parsable layouts are the peer's (its values are not: it measures
// nothing).
func TestSstatLayoutMatchesThePeer(t *testing.T) {
	tests := map[string]struct {
		args  []string
		peer  string
		lines int
	}{
		"default":                 {[]string{"-j", "14707"}, "default.txt", 2},
		"-p with a field list":    {[]string{"-j", "14707", "-p", "-o", "JobID,MaxRSS,NTasks,AveCPU"}, "p.txt", 1},
		"-i":                      {[]string{"-i", "-j", "14707"}, "i.txt", 2},
		"-i -p":                   {[]string{"-i", "-j", "14707", "-p"}, "ip.txt", 1},
		"-o of unmeasured fields": {[]string{"-j", "14707.0", "-o", "MaxRSSNode,MinCPU,TRESUsageInMax"}, "o.txt", 2},
		"widths right-justify":    {[]string{"-j", "14707", "-o", "jobid%20,maxrss%5"}, "width.txt", 2},
		"fields off the default":  {[]string{"-j", "14749", "-o", "ConsumedEnergyRaw,ReqCPUFreq,Nodelist,Pids,NTasks"}, "extra.txt", 2},
		"-i appends -o":           {[]string{"-j", "14749", "-i", "-o", "jobid"}, "io.txt", 2},
		"-e lists the fields":     {[]string{"-e"}, "e.txt", 100},
		"--usage":                 {[]string{"--usage"}, "usage.txt", 100},
		"--help":                  {[]string{"--help"}, "help.txt", 100},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			out, _, code := runSstat(t, statFixture(), tc.args...)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			want := headLines(readSstatPeer(t, tc.peer), tc.lines)
			if diff := cmp.Diff(want, headLines(out, tc.lines)); diff != "" {
				t.Errorf("(-peer +loam):\n%s", diff)
			}
		})
	}
}

// TestSstatGolden: the values, in Loam's own golden files.
func TestSstatGolden(t *testing.T) {
	tests := map[string][]string{
		"sstat-default":  {"-j", "14707"},
		"sstat-usage":    {"-j", "14707", "-o", "jobid,maxrss,maxrssnode,maxrsstask,averss,maxvmsize,mincpu,mincpunode,mincputask,avecpu,ntasks"},
		"sstat-tres":     {"-a", "-j", "14707", "-P", "-o", "jobid,tresusageinave,tresusageinmax,tresusageinmaxnode,tresusageinmaxtask,tresusageinmin,tresusageinminnode,tresusageinmintask,tresusageintot"},
		"sstat-allsteps": {"-a", "-j", "14707,14705", "-o", "jobid,ntasks,nodelist,pids,maxrss"},
		"sstat-pids":     {"-i", "-j", "14707", "-p"},
		"sstat-noheader": {"-n", "-j", "14707.batch", "-o", "jobid,maxrss,ntasks"},
		"sstat-array-id": {"-j", "14707_3", "-o", "jobid,maxrss"},
	}
	for name, args := range tests {
		t.Run(name, func(t *testing.T) {
			out, errOut, code := runSstat(t, statFixture(), args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			checkGolden(t, name+".txt", out)
		})
	}
}

// TestSstatErrors: the peer's messages and exit codes.
func TestSstatErrors(t *testing.T) {
	header := "JobID        \n------------ \n"
	tests := map[string]struct {
		args           []string
		stdout, stderr string
		code           int
	}{
		"no job":               {args: nil, stderr: "sstat: error: You didn't give me any jobs to stat.\n", code: 1},
		"a job id that is not": {args: []string{"-j", "abc"}, stderr: "sstat: fatal: Bad job/step specified: abc\n", code: 1},
		"a step id that is not": {args: []string{"-j", "14707.x", "-o", "jobid"},
			stderr: "sstat: fatal: Bad step specified: 14707\n", code: 1},
		"a bad field":          {args: []string{"-j", "14707", "-o", "foo"}, stderr: "sstat: error: Invalid field requested: \"foo\"\n", code: 1},
		"an unknown job":       {args: []string{"-j", "1", "-o", "jobid"}, stdout: header, stderr: "sstat: error: couldn't get steps for job 1\n"},
		"a pending job":        {args: []string{"-j", "14706", "-o", "jobid"}, stdout: header, stderr: "sstat: error: No steps running for job 14706\n"},
		"a step not running":   {args: []string{"-j", "14707.5", "-o", "jobid"}, stdout: header, stderr: "sstat: error: StepId=14707.5 not found running.\n"},
		"no extern step":       {args: []string{"-j", "14707.extern", "-o", "jobid"}, stdout: header, stderr: "sstat: error: StepId=14707.extern not found running.\n"},
		"only a batch step":    {args: []string{"-j", "14705", "-o", "jobid"}, stdout: header},
		"-V":                   {args: []string{"-V"}, stdout: versionLine + "\n"},
		"-h":                   {args: []string{"-h"}, stdout: sstatHelp},
		"the job list goes on": {args: []string{"-j", "1,14707", "-o", "jobid"}, stdout: header + "14707.0      \n", stderr: "sstat: error: couldn't get steps for job 1\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			out, errOut, code := runSstat(t, statFixture(), tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			if diff := cmp.Diff(tc.stdout, out); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.stderr, errOut); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCPUTime(t *testing.T) {
	tests := map[string]struct {
		usec int64
		want string
	}{
		"nothing":                    {0, "00:00:00"},
		"milliseconds":               {463_250, "00:00.463"},
		"minutes and milliseconds":   {(2*60+5)*1_000_000 + 7_000, "02:05.007"},
		"whole seconds":              {61_000_000, "00:01:01"},
		"sub-millisecond rest":       {3_000_400, "00:00:03"},
		"an hour drops the fraction": {(3600+61)*1_000_000 + 500_000, "01:01:01"},
		"days":                       {(2*86400 + 3*3600) * 1_000_000, "2-03:00:00"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := cpuTime(tc.usec); got != tc.want {
				t.Errorf("cpuTime(%d) = %q, want %q", tc.usec, got, tc.want)
			}
		})
	}
}

// TestCPUSecs: per-task figures (AveCPU, MinCPU) are whole seconds.
func TestCPUSecs(t *testing.T) {
	if got := cpuSecs(1_999_000); got != "00:00:01" {
		t.Errorf("cpuSecs(1.999 s) = %q, want 00:00:01", got)
	}
}
