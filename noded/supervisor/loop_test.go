package supervisor

import (
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/noded/lifecycle"
	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation"
	"github.com/loamhpc/loam/pkg/isolation/isolationtest"
	"github.com/loamhpc/loam/pkg/job"
)

// fakeJob records what the supervisor does to it, at virtual times
// measured from the job's start.
type fakeJob struct {
	start  time.Time
	acts   []string
	done   chan struct{}
	status syscall.WaitStatus
	// dieOn makes the job exit when it receives this signal.
	dieOn syscall.Signal
}

func (f *fakeJob) at() string { return time.Since(f.start).String() }

func (f *fakeJob) Signal(sig syscall.Signal, scope lifecycle.Scope) error {
	who := map[lifecycle.Scope]string{lifecycle.ScopeAll: "all", lifecycle.ScopeSteps: "steps", lifecycle.ScopeBatch: "batch"}[scope]
	f.acts = append(f.acts, f.at()+" signal "+sig.String()+" to "+who)
	if sig == f.dieOn {
		f.exit(syscall.WaitStatus(sig))
	}
	return nil
}

func (f *fakeJob) KillAll() error {
	f.acts = append(f.acts, f.at()+" kill")
	f.exit(syscall.WaitStatus(syscall.SIGKILL))
	return nil
}

func (f *fakeJob) exit(ws syscall.WaitStatus) {
	select {
	case <-f.done:
	default:
		f.status = ws
		close(f.done)
	}
}

func (f *fakeJob) Done() <-chan struct{}      { return f.done }
func (f *fakeJob) Status() syscall.WaitStatus { return f.status }
func (f *fakeJob) Announce(line string)       { f.acts = append(f.acts, f.at()+" announce") }

// run drives a supervisor's loop over a fake job inside a synctest
// bubble: order is called once the loop runs, at the job's start.
func run(t *testing.T, r api.LaunchRequest, fj *fakeJob, order func(s *Supervisor)) *api.JobEvent {
	var res *api.JobEvent
	synctest.Test(t, func(t *testing.T) {
		iso := &isolationtest.Isolator{}
		g, _ := iso.Create(isolation.Spec{Name: "loam/n1/job_1"})
		s := &Supervisor{launch: spool.Launch{Request: r, Node: "n1"}, ctl: newControl(), job: fj, group: g, log: NewLogger(t.Output())}
		fj.start, fj.done = time.Now(), make(chan struct{})
		s.ctl.setRunning(fj.start, 42)
		done := make(chan *api.JobEvent)
		go func() { done <- s.loop() }()
		if order != nil {
			order(s)
		}
		res = <-done
	})
	return res
}

// send hands the loop one order, as the control socket does.
func send(s *Supervisor, req request) {
	req.done = make(chan struct{})
	s.ctl.reqs <- req
	<-req.done
}

func TestLoopTimeLimitWithWarning(t *testing.T) {
	fj := &fakeJob{}
	r := api.LaunchRequest{JobID: 1, TimeLimit: 60, KillWait: 5, Signal: &job.Signal{Number: 10, Seconds: 20, Batch: true}}
	res := run(t, r, fj, nil)
	want := []string{"40s signal user defined signal 1 to batch", "1m0s announce", "1m0s signal continued to all",
		"1m0s signal terminated to all", "1m5s kill", "1m5s kill"}
	if diff := cmp.Diff(want, fj.acts); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	if !res.TimedOut || res.ExitCode != (job.ExitCode{Signal: 9}) || res.Kind != api.EventEnded {
		t.Errorf("result = %+v", res)
	}
}

func TestLoopCancelJobDiesOnTerm(t *testing.T) {
	fj := &fakeJob{dieOn: syscall.SIGTERM}
	res := run(t, api.LaunchRequest{JobID: 1, TimeLimit: 3600}, fj, func(s *Supervisor) {
		time.Sleep(10 * time.Second)
		send(s, request{terminate: &api.TerminateRequest{JobID: 1, Reason: api.TerminateCancel, Grace: 30}})
	})
	want := []string{"10s announce", "10s signal continued to all", "10s signal terminated to all", "10s kill"}
	if diff := cmp.Diff(want, fj.acts); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	if res.Terminated != api.TerminateCancel || res.ExitCode != (job.ExitCode{Signal: 15}) || res.TimedOut {
		t.Errorf("result = %+v", res)
	}
}

// TestLoopStepsKeepTheGrace: a cancelled job whose batch shell dies at
// once on SIGTERM while a step still runs (saving its work) is not killed
// before the step ends or the grace is over, as in Slurm.
func TestLoopStepsKeepTheGrace(t *testing.T) {
	tests := map[string]struct {
		stepEnds time.Duration // after the cancel; 0: never
		want     []string
	}{
		// 3.05 s: off the 0.1 s poll, so the order is certain.
		"the step saves and exits": {stepEnds: 3050 * time.Millisecond,
			want: []string{"10s announce", "10s signal continued to all", "10s signal terminated to all", "13.1s kill"}},
		"the step ignores SIGTERM": {
			want: []string{"10s announce", "10s signal continued to all", "10s signal terminated to all", "40s kill", "40s kill"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			fj := &fakeJob{dieOn: syscall.SIGTERM}
			res := run(t, api.LaunchRequest{JobID: 1, TimeLimit: 3600}, fj, func(s *Supervisor) {
				g := s.group.(*isolationtest.Group)
				_ = g.Add(99) // the step's task
				time.Sleep(10 * time.Second)
				send(s, request{terminate: &api.TerminateRequest{JobID: 1, Reason: api.TerminateCancel, Grace: 30}})
				if tc.stepEnds > 0 {
					time.Sleep(tc.stepEnds)
					g.Exit(99)
				}
			})
			if diff := cmp.Diff(tc.want, fj.acts); diff != "" {
				t.Errorf("actions (-want +got):\n%s", diff)
			}
			if res.Terminated != api.TerminateCancel || res.ExitCode != (job.ExitCode{Signal: 15}) {
				t.Errorf("result = %+v", res)
			}
		})
	}
}

func TestLoopPreemptionGrace(t *testing.T) {
	tests := map[string]struct {
		dieOn     syscall.Signal
		wantGrace bool
		wantLast  string
	}{
		"checkpoints and exits": {dieOn: syscall.SIGUSR1, wantGrace: true, wantLast: "0s kill"},
		"ignores its signal":    {wantLast: "2m0s kill"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			fj := &fakeJob{dieOn: tc.dieOn}
			res := run(t, api.LaunchRequest{JobID: 1}, fj, func(s *Supervisor) {
				send(s, request{terminate: &api.TerminateRequest{JobID: 1, Reason: api.TerminatePreempt, Signal: 10, Grace: 120}})
			})
			if res.ExitedInGrace != tc.wantGrace || res.Terminated != api.TerminatePreempt {
				t.Errorf("result = %+v, want exited in grace %v", res, tc.wantGrace)
			}
			if last := fj.acts[len(fj.acts)-1]; last != tc.wantLast {
				t.Errorf("last action %q, want %q (all %q)", last, tc.wantLast, fj.acts)
			}
		})
	}
}

func TestLoopSignalAndTimeLimitOrders(t *testing.T) {
	fj := &fakeJob{}
	res := run(t, api.LaunchRequest{JobID: 1, TimeLimit: 3600, KillWait: 1}, fj, func(s *Supervisor) {
		send(s, request{signal: &api.SignalRequest{JobID: 1, Signal: 12}})
		send(s, request{signal: &api.SignalRequest{JobID: 1, Signal: 10, BatchOnly: true}})
		send(s, request{signal: &api.SignalRequest{JobID: 1, Signal: 1, Full: true}})
		time.Sleep(time.Minute)
		send(s, request{timeLimit: &api.TimeLimitRequest{JobID: 1, TimeLimit: 90}})
	})
	// scancel --signal reaches the steps, -b the batch shell, -f all.
	want := []string{"0s signal user defined signal 2 to steps", "0s signal user defined signal 1 to batch",
		"0s signal hangup to all", "1m30s announce", "1m30s signal continued to all",
		"1m30s signal terminated to all", "1m31s kill", "1m31s kill"}
	if diff := cmp.Diff(want, fj.acts); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	if !res.TimedOut {
		t.Errorf("result = %+v", res)
	}
}

func TestLoopReportsOOM(t *testing.T) {
	fj := &fakeJob{}
	synctest.Test(t, func(t *testing.T) {
		iso := &isolationtest.Isolator{}
		g, _ := iso.Create(isolation.Spec{Name: "loam/n1/job_2"})
		g.(*isolationtest.Group).SetOOMKills(1)
		s := &Supervisor{launch: spool.Launch{Request: api.LaunchRequest{JobID: 2}}, ctl: newControl(), job: fj, group: g, log: NewLogger(t.Output())}
		fj.start, fj.done = time.Now(), make(chan struct{})
		fj.exit(syscall.WaitStatus(syscall.SIGKILL))
		res := s.loop()
		if !res.OOM || res.ExitCode != (job.ExitCode{Signal: 9}) || res.Message != "Detected 1 oom_kill event in loam/n1/job_2" {
			t.Errorf("result = %+v", res)
		}
		if !g.(*isolationtest.Group).Deleted() {
			t.Error("cgroup not removed")
		}
	})
}
