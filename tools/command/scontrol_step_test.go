package command

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// fakeStepLister lists fixed steps, as the controller does for a job
// query (the job or its array's tasks) and refuses unknown jobs.
type fakeStepLister struct {
	*fakeController
	steps []api.Step
	known map[uint32]bool
}

func (f *fakeStepLister) Steps(_ context.Context, q *api.StepQuery) (*api.StepsResponse, error) {
	if q.Known && len(q.JobIDs) == 1 && !f.known[q.JobIDs[0]] {
		return nil, api.NewError(api.CodeInvalidJobID)
	}
	out := &api.StepsResponse{}
	for _, s := range f.steps {
		if len(q.JobIDs) == 0 || q.JobIDs[0] == s.JobID || q.JobIDs[0] == s.ArrayJobID {
			out.Steps = append(out.Steps, s)
		}
	}
	return out, nil
}

// peerSteps are the steps of testdata/peer/scontrol-show-step.txt as the
// controller lists them: numbered steps before each job's batch step.
func peerSteps() []api.Step {
	at := func(s string) int64 {
		tm, err := time.Parse("2006-01-02T15:04:05", s)
		if err != nil {
			panic(err)
		}
		return tm.Unix()
	}
	base := api.Step{UserID: 0, UserName: "root", State: job.Running, Partition: "normal"}
	batch := func(id uint32, start, node string) api.Step {
		s := base
		s.JobID, s.StepID, s.Name, s.StartTime, s.Nodes, s.NodeCount, s.Tasks = id, "batch", "batch", at(start), node, 1, 1
		return s
	}
	mp := base
	mp.JobID, mp.StepID, mp.Name, mp.StartTime, mp.Nodes, mp.NodeCount, mp.Tasks, mp.CPUs = 11495, "0", "sl.conf", at("2026-11-29T16:13:00"), "gpu[001-002]", 2, 2, 4
	mp.TRES, mp.Dist, mp.SrunHost, mp.SrunPid, mp.TRESPerStep, mp.TRESPerNode = "cpu=4,mem=4G,node=2", "Cyclic", "vm", 3575, "cpu:2", "gres:gpu:2"
	gpt := mp
	gpt.JobID, gpt.Name, gpt.StartTime, gpt.Tasks, gpt.Dist, gpt.SrunPid = 11461, "sleep", at("2026-11-29T16:05:40"), 4, "Block", 15951
	gpt.TRESBind, gpt.TRESPerStep, gpt.TRESPerTask = "gpu:per_task:1", "cpu:4", "cpu:1,gres:gpu:1"
	cpu := base
	cpu.JobID, cpu.StepID, cpu.Name, cpu.StartTime, cpu.Nodes, cpu.NodeCount, cpu.Tasks, cpu.CPUs = 11455, "0", "sleep", at("2026-11-29T16:05:24"), "cpu001", 1, 1, 2
	cpu.TRES, cpu.Dist, cpu.SrunHost, cpu.SrunPid = "cpu=2,mem=100M,node=1", "Cyclic", "vm", 11506
	return []api.Step{cpu, batch(11455, "2026-11-29T16:05:24", "cpu001"), gpt, batch(11461, "2026-11-29T16:05:40", "gpu001"),
		mp, batch(11495, "2026-11-29T16:13:00", "gpu001")}
}

// peerSections reads the recording: each "$ scontrol ..." line and what
// the peer printed after it.
func peerSections(t *testing.T, path string) ([][]string, []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var args [][]string
	var outs []string
	for _, line := range strings.SplitAfter(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "$ scontrol "):
			args = append(args, strings.Fields(line)[2:])
			outs = append(outs, "")
		case len(outs) > 0:
			outs[len(outs)-1] += line
		}
	}
	return args, outs
}

// TestStepShowPeer prints the peer's steps and compares every record,
// field for field, with what Slurm printed.
func TestStepShowPeer(t *testing.T) {
	args, outs := peerSections(t, filepath.Join("testdata", "peer", "scontrol-show-step.txt"))
	if len(args) == 0 {
		t.Fatal("no recorded commands")
	}
	for i := range args {
		t.Run(strings.Join(args[i], " "), func(t *testing.T) {
			f := &fakeStepLister{fakeController: &fakeController{}, steps: peerSteps(),
				known: map[uint32]bool{11455: true, 11461: true, 11495: true, 11457: true}}
			if last := args[i][len(args[i])-1]; last == "steps" || last == "abc" {
				f.steps = nil // recorded when no step ran
			}
			te := newTestEnv(f.fakeController, 1_800_000_000)
			te.Dial = func(context.Context) (Controller, error) { return f, nil }
			Scontrol(context.Background(), te.Env, args[i])
			if diff := cmp.Diff(outs[i], te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStepShowSelect covers the selections scontrol reads with strtol and
// its exit statuses.
func TestStepShowSelect(t *testing.T) {
	task := 2
	arr := api.Step{JobID: 31, ArrayJobID: 30, ArrayTaskID: &task, StepID: "0", Name: "a", State: job.Running, NodeCount: 1, Tasks: 1}
	tests := map[string]struct {
		args       []string
		wantIDs    []string
		wantStdout string
		wantStderr string
		wantCode   int
	}{
		"every step, batch first per job": {args: []string{"show", "steps"},
			wantIDs: []string{"11455.batch", "11455.0", "11461.batch", "11461.0", "11495.batch", "11495.0", "30_2.0"}},
		"one job":                   {args: []string{"show", "step", "11461"}, wantIDs: []string{"11461.batch", "11461.0"}},
		"step=ID":                   {args: []string{"show", "step=11461.0"}, wantIDs: []string{"11461.0"}},
		"batch reads as step 0":     {args: []string{"show", "step", "11461.batch"}, wantIDs: []string{"11461.0"}},
		"-5 is the batch step":      {args: []string{"show", "step", "11461.-5"}, wantIDs: []string{"11461.batch"}},
		"an array by its job id":    {args: []string{"show", "st", "30"}, wantIDs: []string{"30_2.0"}},
		"an array task, step after": {args: []string{"show", "step", "30_2.7"}, wantIDs: []string{"30_2.0"}},
		"an unknown job": {args: []string{"show", "step", "99"}, wantCode: 1,
			wantStderr: "slurm_get_job_steps error: Invalid job id specified\n"},
		"a missing array task": {args: []string{"show", "step", "30_5"}, wantCode: 1, wantStdout: "Job step 30_5. not found\n"},
		"quiet":                {args: []string{"-Q", "show", "step", "11461.9"}, wantCode: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeStepLister{fakeController: &fakeController{}, steps: append(peerSteps(), arr),
				known: map[uint32]bool{11455: true, 11461: true, 11495: true, 30: true}}
			te := newTestEnv(f.fakeController, 1_800_000_000)
			te.Dial = func(context.Context) (Controller, error) { return f, nil }
			code := Scontrol(context.Background(), te.Env, append([]string{"-o"}, tc.args...))
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d", code, tc.wantCode)
			}
			if tc.wantIDs != nil {
				var ids []string
				for _, l := range strings.Split(strings.TrimSpace(te.stdout.String()), "\n") {
					id, _, _ := strings.Cut(strings.TrimPrefix(l, "StepId="), " ")
					ids = append(ids, id)
				}
				if diff := cmp.Diff(tc.wantIDs, ids); diff != "" {
					t.Errorf("steps (-want +got):\n%s", diff)
				}
			} else if diff := cmp.Diff(tc.wantStdout, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantStderr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}
