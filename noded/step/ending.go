package step

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// EndingSignal, sent to a step process, says that the step's job is
// ending (scancel JOB, time limit, preemption, requeue): as each
// slurmstepd of a job does, the step announces "*** STEP J.S ON N
// CANCELLED AT T[ DUE TO ...] ***" to srun before the job's processes are
// signalled. The step process signals nothing itself: the job's
// supervisor ends every process of the job.
const EndingSignal = syscall.SIGUSR2

// endingFile, in the step's directory, holds the reason suffix (" DUE TO
// TIME LIMIT", or empty) while the announcement is pending; the step
// process removes it once written.
const endingFile = "ending"

// JobEnding tells the step process of the step in dir that its job ends
// (why: the suffix of the cancel line) and waits up to wait for the line
// to be written, so that it reaches srun before the tasks die. A step
// without a process is ErrNoProcess.
func JobEnding(dir, why string, wait time.Duration) error {
	pid, err := findProcess("/proc", dir)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, endingFile)
	if err := os.WriteFile(path, []byte(why), 0o600); err != nil {
		return fmt.Errorf("record job end for step: %w", err)
	}
	if err := syscall.Kill(pid, EndingSignal); err != nil {
		_ = os.Remove(path)
		if errors.Is(err, syscall.ESRCH) {
			return ErrNoProcess
		}
		return fmt.Errorf("signal step process %d: %w", pid, err)
	}
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return nil
		}
	}
	return fmt.Errorf("step process %d did not announce the job's end within %v", pid, wait)
}

// endingWhy is the suffix of a step's cancel line per reason, as
// slurmstepd's.
var endingWhy = map[api.TerminateReason]string{
	api.TerminateTimeout:  " DUE TO TIME LIMIT",
	api.TerminatePreempt:  " DUE TO PREEMPTION",
	api.TerminateRequeue:  " DUE TO JOB REQUEUE",
	api.TerminateNodeFail: " DUE TO NODE FAILURE",
	api.TerminateDeadline: " DUE TO DEADLINE",
}

// EndingWait bounds how long a job's end waits for each step to announce
// it: a step process that does not answer in time misses its line, and
// the job ends all the same.
const EndingWait = time.Second

// AnnounceJobEnd has every step of the job in jobDir that has a step
// process say that the job ends for reason, in parallel, before the
// caller signals the job's processes. It returns the errors other than
// steps without a process, by step directory.
func AnnounceJobEnd(jobDir string, reason api.TerminateReason) map[string]error {
	dirs, _ := filepath.Glob(filepath.Join(jobDir, "step_*"))
	errs := make([]error, len(dirs))
	var wg sync.WaitGroup
	for i, dir := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = JobEnding(dir, endingWhy[reason], EndingWait)
		}()
	}
	wg.Wait()
	out := map[string]error{}
	for i, err := range errs {
		if err != nil && !errors.Is(err, ErrNoProcess) {
			out[dirs[i]] = err
		}
	}
	return out
}

// catchEnding starts catching EndingSignal before the tasks start.
func catchEnding() chan os.Signal {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, EndingSignal)
	return ch
}

// handleEnding announces the job's end on each EndingSignal caught on
// ch, once the tasks have started, until the returned stop is called.
func (p *proc) handleEnding(ch chan os.Signal) (stop func()) {
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				p.jobEnding()
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}

// jobEnding writes the cancel line once, unless the step is already
// ending (srun, a step cancel or the step's time limit said so), and
// then acknowledges by removing the ending file.
func (p *proc) jobEnding() {
	path := filepath.Join(p.dir, endingFile)
	why, err := os.ReadFile(path)
	if err != nil {
		return
	}
	if p.terminating.CompareAndSwap(false, true) {
		p.log.WithField("why", string(why)).Info("job ending: step announced")
		p.announce(time.Now(), string(why))
		p.tellAborted()
	}
	_ = os.Remove(path)
}
