package supervisor

import (
	"context"
	"syscall"

	"github.com/loamhpc/loam/noded/nodeprolog"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// Node prolog and epilog failures: the launch failure code, and the drain
// reasons slurmd gives the node (scontrol show node's Reason=).
const (
	FailProlog        = "ESLURMD_PROLOG_FAILED"
	DrainPrologFailed = "Prolog error"
	DrainEpilogFailed = "Epilog error"
)

// runProlog runs slurm.conf's Prolog before the job's first process here.
// A failure is the job's launch failure and drains the node; a job ended
// while its prolog ran never starts.
func (s *Supervisor) runProlog() *api.JobEvent {
	spec := s.launch.Prolog
	if spec.Path == "" {
		return nil
	}
	var f *nodeprolog.Failure
	stop := s.aside(func() { f = nodeprolog.Run(context.Background(), spec, s.scriptEnv(nodeprolog.Prolog, 0)) })
	if f != nil {
		s.log.WithError(f).WithField("output", f.Output).Error("prolog failed")
		res := launchFailed(FailProlog, "Error running slurm prolog: %d", f.ExitCode())
		res.Drain = DrainPrologFailed
		s.tellBatchJob(res.Message)
		return res
	}
	if stop != nil {
		s.log.WithField("reason", stop.Reason).Info("job ended during its prolog: not started")
		return &api.JobEvent{Kind: api.EventEnded, Terminated: stop.Reason,
			ExitCode: job.ExitCode{Signal: int(syscall.SIGTERM)}}
	}
	return nil
}

// tellBatchJob writes line to a batch job's error file, as slurmd writes
// why its prolog failed there.
func (s *Supervisor) tellBatchJob(line string) {
	r := &s.launch.Request
	if !r.Batch {
		return
	}
	files, err := openStdio(&s.launch, Credential{UID: r.UserID, GID: r.GroupID, Groups: r.Groups})
	if err != nil {
		s.log.WithError(err).Warn("open the job's error file")
		return
	}
	defer files.close()
	_, _ = files.err.WriteString(line + "\n")
}

// runEpilog runs slurm.conf's Epilog once the job ended here (or its
// prolog failed: slurmd runs the epilog then too), before its end is
// reported: meanwhile the supervisor shows Completing, which the
// daemon reports, and the job shows COMPLETING. A failure drains the
// node; the job's own result stands.
func (s *Supervisor) runEpilog(res *api.JobEvent) {
	spec := s.launch.Epilog
	if spec.Path == "" {
		return
	}
	status := 0
	if s.job != nil {
		status = int(s.job.Status())
	}
	s.ctl.setCompleting(res)
	var f *nodeprolog.Failure
	s.aside(func() { f = nodeprolog.Run(context.Background(), spec, s.scriptEnv(nodeprolog.Epilog, status)) })
	if f != nil {
		s.log.WithError(f).WithField("output", f.Output).Error("epilog failed")
		res.Drain = DrainEpilogFailed
	}
}

// aside runs script (a prolog or epilog) while answering the orders the
// loop answers otherwise: there is no process of the job to act on, and
// the daemon must not wait on the script. The first terminate order is
// returned: a job ended during its prolog never starts.
func (s *Supervisor) aside(script func()) *api.TerminateRequest {
	done := make(chan struct{})
	go func() {
		defer close(done)
		script()
	}()
	var stop *api.TerminateRequest
	for {
		select {
		case <-done:
			return stop
		case req := <-s.ctl.reqs:
			if req.terminate != nil && stop == nil {
				stop = req.terminate
			}
			close(req.done)
		}
	}
}

// scriptEnv is the prolog's or epilog's environment.
func (s *Supervisor) scriptEnv(ctx nodeprolog.Context, status int) []string {
	return nodeprolog.Env(nodeprolog.Input{Req: &s.launch.Request, Node: s.launch.Node,
		ConfPath: s.launch.ConfPath, Context: ctx, Status: status})
}
