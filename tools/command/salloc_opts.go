package command

import (
	"bytes"
	"context"
	"io"
	"os"
	"sync"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/jobopt"
)

// quietStderr is salloc -Q: Slurm raises the log level to errors, so its
// informational lines ("salloc: Granted job allocation N", "Pending",
// "queued and waiting", "Relinquishing", notices) are not printed, while
// "salloc: error: ..." and warnings are. The command's own standard error
// does not pass through here.
func quietStderr(env *Env) *Env {
	e := *env
	e.Stderr = &levelFilter{w: env.Stderr, prog: "salloc: "}
	return &e
}

// levelFilter drops the lines that start with prog and are not errors,
// warnings or fatal errors. It sees whole lines: every writer of salloc
// writes one or more complete lines at a time.
type levelFilter struct {
	mu   sync.Mutex
	w    io.Writer
	prog string
}

func (f *levelFilter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var keep []byte
	for _, line := range bytes.SplitAfter(p, []byte("\n")) {
		rest, ok := bytes.CutPrefix(line, []byte(f.prog))
		if ok && !bytes.HasPrefix(rest, []byte("error: ")) && !bytes.HasPrefix(rest, []byte("warning: ")) &&
			!bytes.HasPrefix(rest, []byte("fatal: ")) {
			continue
		}
		keep = append(keep, line...)
	}
	if len(keep) > 0 {
		if _, err := f.w.Write(keep); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// sallocConflict is what salloc refuses among its own options before it
// asks for anything, with its words.
func sallocConflict(st jobopt.StepOptions) string {
	if st.Quiet && st.Verbose > 0 {
		return "don't specify both --verbose (-v) and --quiet (-Q)"
	}
	return ""
}

// checkChdir is salloc -D: the command runs in that directory (the job's
// working directory stays where salloc was started, as in Slurm), and a
// directory that is not there stops salloc before it allocates anything.
func checkChdir(env *Env, w *output, dir string) bool {
	if dir == "" || dir == env.Cwd || env.Exists(dir) {
		return true
	}
	w.errf("chdir(%s): No such file or directory", dir)
	return false
}

// allocateImmediate is salloc -I (and srun's for its own allocation): the
// allocation must be granted at once (-I or -I1: within the scheduler's
// next cycle) or within the given seconds, else it is given up, with the
// peer's words (srun's without salloc's "has been revoked"). A held job or
// one that may not start yet (--begin) is refused as slurmctld refuses it
// for -I.
func (a *allocator) allocateImmediate(ctx context.Context, env *Env, req job.Request, secs int, sigs <-chan os.Signal) (*api.Allocation, int) {
	if !a.submit(ctx, env, req) {
		return nil, errorExit(env)
	}
	if req.Hold || (req.Begin != nil && req.Begin.After(env.Now())) {
		a.release(ctx, job.ExitCode{})
		a.w.errf("%s: %s", allocFailed[a.prog], api.NewError(api.CodeDependency).Message)
		a.givenUp()
		return nil, 1
	}
	if secs > 1 {
		return a.allocateWithin(ctx, int64(secs), sigs)
	}
	al, interrupted, err := a.wait(ctx, 1, sigs)
	switch {
	case interrupted:
		a.revoked()
		a.release(ctx, job.ExitCode{})
		return nil, 1
	case err == nil && al.Ready:
		return al, 0
	case err != nil:
		a.w.errf("Unable to confirm allocation for job %d: %s", a.id, errText(err))
	default:
		a.w.errf("Unable to allocate resources: Requested nodes are busy") // ESLURM_NODES_BUSY
	}
	a.release(ctx, job.ExitCode{})
	a.givenUp()
	return nil, 1
}

// givenUp is salloc's last line for an allocation it gave up; srun
// prints none.
func (a *allocator) givenUp() {
	if a.prog == "salloc" {
		a.w.raw("salloc: Job allocation " + u32s(a.id) + " has been revoked.\n")
	}
}

// heldNotice says, as Slurm's salloc does when the controller accepts a
// held job (-H), that the job waits for a release.
type heldNotice struct {
	stepController
	w *output
}

func (h heldNotice) Allocate(ctx context.Context, req *api.AllocateRequest) (*api.SubmitResponse, error) {
	resp, err := h.stepController.Allocate(ctx, req)
	if err == nil {
		h.w.raw("salloc: Job is in held state, pending scheduler release\n")
	}
	return resp, err
}

// allocateWithin is salloc -I<secs> for more than one second: the job
// waits like any other ("Pending job allocation N", "queued and waiting")
// and is given up when secs pass, as the peer's salloc gives it up when
// its wait for the allocation times out.
func (a *allocator) allocateWithin(ctx context.Context, secs int64, sigs <-chan os.Signal) (*api.Allocation, int) {
	first := min(allocWaits[0], secs)
	for waited, waits := int64(0), 0; waited < secs; waits++ {
		step := first
		if waits > 0 {
			step = secs - waited
		}
		al, interrupted, err := a.wait(ctx, step, sigs)
		waited += step
		switch {
		case interrupted:
			a.revoked()
			a.release(ctx, job.ExitCode{})
			return nil, 1
		case err != nil:
			a.w.errf("Unable to confirm allocation for job %d: %s", a.id, errText(err))
			a.release(ctx, job.ExitCode{})
			return nil, 1
		case al.Ready:
			if waits > 0 {
				a.w.raw(a.prog + ": job " + u32s(a.id) + " has been allocated resources\n")
			}
			return al, 0
		case al.Ended:
			a.endedPending()
			return nil, 1
		}
		if waits == 0 {
			if a.prog == "salloc" {
				a.w.raw("salloc: Pending job allocation " + u32s(a.id) + "\n")
			}
			a.w.raw(a.prog + ": job " + u32s(a.id) + " queued and waiting for resources\n")
		}
	}
	a.release(ctx, job.ExitCode{})
	if a.prog == "salloc" {
		// The peer's salloc says so before it reports its timed-out wait;
		// srun reports the busy nodes as with -I alone.
		a.givenUp()
		a.w.errf("Unable to allocate resources: Connection timed out") // ETIMEDOUT
	} else {
		a.w.errf("Unable to allocate resources: Requested nodes are busy") // ESLURM_NODES_BUSY
	}
	return nil, 1
}
