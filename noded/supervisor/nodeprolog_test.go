package supervisor

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/noded/nodeprolog"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// scriptSupervisor is a supervisor of job 7 whose prolog and epilog are
// the shell snippets given ("" for none).
func scriptSupervisor(t *testing.T, prolog, epilog string) *Supervisor {
	t.Helper()
	dir := t.TempDir()
	s := &Supervisor{dir: dir, log: NewLogger(io.Discard), ctl: newControl()}
	s.launch.Request = api.LaunchRequest{JobID: 7, Batch: true, UserName: "root"}
	s.launch.Node = "n01"
	for name, body := range map[string]string{"prolog": prolog, "epilog": epilog} {
		if body == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if name == "prolog" {
			s.launch.Prolog = nodeprolog.Spec{Path: p}
		} else {
			s.launch.Epilog = nodeprolog.Spec{Path: p}
		}
	}
	return s
}

func TestPrologOutcomes(t *testing.T) {
	tests := map[string]struct {
		prolog string
		want   *api.JobEvent
	}{
		"no prolog": {"", nil},
		"a success": {"exit 0", nil},
		"a failure is the launch's, with slurmd's message, and drains the node": {"exit 3",
			&api.JobEvent{Kind: api.EventLaunchFailed, ExitCode: launchFailureExit, FailCode: FailProlog,
				Message: "Error running slurm prolog: 3", Drain: "Prolog error"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s := scriptSupervisor(t, tc.prolog, "")
			s.launch.Request.WorkDir, s.launch.Request.StdOut = s.dir, "slurm-%j.out"
			res := s.runProlog()
			if diff := cmp.Diff(tc.want, res); diff != "" {
				t.Errorf("runProlog result (-want +got):\n%s", diff)
			}
			// As the peer's slurmd: the job's output holds why.
			out, _ := os.ReadFile(filepath.Join(s.dir, "slurm-7.out"))
			want := ""
			if tc.want != nil {
				want = tc.want.Message + "\n"
			}
			if string(out) != want {
				t.Errorf("job output %q, want %q", out, want)
			}
		})
	}
}

// TestOrdersDuringProlog: the daemon's orders are answered while the
// prolog runs (never left waiting on it), and a job cancelled meanwhile
// never starts.
func TestOrdersDuringProlog(t *testing.T) {
	s := scriptSupervisor(t, "sleep 0.3", "")
	done := make(chan *api.JobEvent, 1)
	go func() { done <- s.runProlog() }()
	req := request{terminate: &api.TerminateRequest{JobID: 7, Reason: api.TerminateCancel}, done: make(chan struct{})}
	s.ctl.reqs <- req
	select {
	case <-req.done:
	case <-time.After(5 * time.Second):
		t.Fatal("a terminate order waited for the prolog")
	}
	want := &api.JobEvent{Kind: api.EventEnded, Terminated: api.TerminateCancel, ExitCode: job.ExitCode{Signal: 15}}
	if diff := cmp.Diff(want, <-done); diff != "" {
		t.Errorf("runProlog result (-want +got):\n%s", diff)
	}
}

// TestEpilogShowsCompletingAndDrainsOnFailure: while the epilog runs the
// supervisor shows Completing with the job's end; a failed epilog marks
// the end with the node's drain reason and changes nothing else.
func TestEpilogShowsCompletingAndDrainsOnFailure(t *testing.T) {
	s := scriptSupervisor(t, "", "exit 1")
	res := &api.JobEvent{Kind: api.EventEnded, ExitCode: job.ExitCode{Status: 2}}
	s.runEpilog(res)
	st, _ := s.ctl.status()
	if st.State != Completing || st.Result == nil || st.Result.ExitCode != res.ExitCode || st.Result.Drain != "" {
		t.Errorf("status during the epilog: %+v, want Completing with exit 2:0", st)
	}
	want := &api.JobEvent{Kind: api.EventEnded, ExitCode: job.ExitCode{Status: 2}, Drain: "Epilog error"}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
}
