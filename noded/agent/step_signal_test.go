package agent

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sirupsen/logrus"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/noded/step"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation"
	"github.com/loamhpc/loam/pkg/isolation/isolationtest"
)

// stepSignalAgent is a daemon running job 7 with steps 0 and 1 here, their
// cgroups fake.
func stepSignalAgent(t *testing.T) (*Agent, *isolationtest.Isolator, string) {
	t.Helper()
	iso := &isolationtest.Isolator{}
	jobDir := t.TempDir()
	const group = "loam/n1/job_7"
	if err := spool.WriteJSON(filepath.Join(jobDir, spool.LaunchFile), &spool.Launch{Group: group}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{group, group + "/step_0", group + "/step_1"} {
		if _, err := iso.Create(isolation.Spec{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []uint32{0, 1} {
		if err := os.Mkdir(step.Dir(jobDir, id), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	log := logrus.New()
	log.SetOutput(t.Output())
	a := &Agent{log: logrus.NewEntry(log), iso: iso, jobs: map[uint32]*jobEntry{}}
	e := newEntry(7, 0, jobDir, nil)
	close(e.ready)
	a.jobs[7] = e
	return a, iso, jobDir
}

// groupLog is what a fake cgroup went through.
type groupLog struct {
	Signals      []syscall.Signal
	ChildSignals []syscall.Signal
	Kills        int
}

func logOf(iso *isolationtest.Isolator, name string) groupLog {
	g := iso.Group(name)
	return groupLog{Signals: g.Signals(), ChildSignals: g.ChildSignals(), Kills: g.Kills()}
}

// A signal for one step reaches that step's cgroup only: not the job's
// (the batch shell), not the other step; SIGKILL without a step process
// kills the step's cgroup; a step not run here is unknown.
func TestStepSignalReachesOnlyThatStep(t *testing.T) {
	cases := map[string]struct {
		step        uint32
		signal      int
		wantUnknown bool
		want        map[string]groupLog // by group, below the job's
	}{
		"SIGUSR1 to step 1": {step: 1, signal: 10,
			want: map[string]groupLog{"step_1": {Signals: []syscall.Signal{syscall.SIGUSR1}}}},
		"SIGKILL to step 0 without a step process": {step: 0, signal: 9,
			want: map[string]groupLog{"step_0": {Kills: 1}}},
		"a step not run here": {step: 5, signal: 10, wantUnknown: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			a, iso, _ := stepSignalAgent(t)
			resp, aerr := a.signal(context.Background(), &api.SignalRequest{JobID: 7, Signal: tc.signal, Step: &tc.step})
			if aerr != nil {
				t.Fatalf("signal: %v", aerr)
			}
			if resp.Unknown != tc.wantUnknown {
				t.Errorf("unknown = %v, want %v", resp.Unknown, tc.wantUnknown)
			}
			got := map[string]groupLog{}
			for _, g := range []string{"", "step_0", "step_1"} {
				name := "loam/n1/job_7"
				if g != "" {
					name += "/" + g
				}
				if l := logOf(iso, name); !cmp.Equal(l, groupLog{}) {
					got[g] = l
				}
			}
			if tc.want == nil {
				tc.want = map[string]groupLog{}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("cgroups (-want +got):\n%s", diff)
			}
		})
	}
}

// SIGKILL for a step whose step process runs goes to that process
// (step.CancelSignal), which announces the cancel and kills its tasks; the
// daemon kills nothing itself.
func TestStepSignalCancelGoesToTheStepProcess(t *testing.T) {
	a, iso, jobDir := stepSignalAgent(t)
	// A stand-in step process: its command line ends "__step DIR".
	cmd := exec.Command("/bin/sh", "-c", `trap "exit 3" TERM; while :; do sleep 0.05; done`, step.Arg, step.Dir(jobDir, 1))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	resp, aerr := a.signal(context.Background(), &api.SignalRequest{JobID: 7, Signal: 9, Step: new(uint32(1))})
	if aerr != nil || resp.Unknown {
		t.Fatalf("signal = %+v, %v", resp, aerr)
	}
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("step process ended with %v, want the cancel signal", err)
		}
		ws := ee.Sys().(syscall.WaitStatus)
		if !(ws.Exited() && ws.ExitStatus() == 3) && !(ws.Signaled() && ws.Signal() == step.CancelSignal) {
			t.Errorf("step process ended %v, want by the cancel signal", ws)
		}
	case <-time.After(wait):
		t.Fatal("the step process was not told")
	}
	for _, g := range []string{"loam/n1/job_7", "loam/n1/job_7/step_0", "loam/n1/job_7/step_1"} {
		if l := logOf(iso, g); !cmp.Equal(l, groupLog{}) {
			t.Errorf("%s: %+v, want untouched", g, l)
		}
	}
}
