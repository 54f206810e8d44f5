package unkillable

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// DrainReason is the node's drain reason, slurm_strerror's words for
// ESLURMD_KILL_TASK_FAILED.
const DrainReason = "Kill task failed"

// Step ids slurmstepd gives the program for the steps without a number.
const (
	BatchStep  uint32 = 0xfffffffb // SLURM_BATCH_SCRIPT
	ExternStep uint32 = 0xfffffffc // SLURM_EXTERN_CONT: a node's allocation
)

// ProgramTimeout bounds UnkillableStepProgram: slurmstepd kills its
// process group after 300 seconds.
const ProgramTimeout = 300 * time.Second

// Spec is slurm.conf's unkillable step settings as a job's node got them.
type Spec struct {
	// Timeout is UnkillableStepTimeout.
	Timeout time.Duration `json:"timeout"`
	// Program is UnkillableStepProgram ("" for none).
	Program string `json:"program,omitempty"`
}

// KillBound is how long a kill waits for the processes to go before they
// count as unkillable: the timeout and the second slurmstepd's monitor
// adds to it.
func (s Spec) KillBound() time.Duration { return s.Timeout + time.Second }

// Bound makes the kills of x's groups (an isolator or a cgroup loader
// whose kills can be bounded: packages cgroup and cgfs) give up after
// KillBound, so a job or step ends even when its processes never go. A
// nil Spec (a launch written before the daemon passed the settings)
// keeps x's default bound.
func (s *Spec) Bound(x any) {
	if b, ok := x.(interface{ SetKillTimeout(time.Duration) }); ok && s != nil {
		b.SetKillTimeout(s.KillBound())
	}
}

// Env is the program's whole environment, as slurmstepd builds it.
func Env(jobID, stepID uint32) []string {
	job, step := strconv.FormatUint(uint64(jobID), 10), strconv.FormatUint(uint64(stepID), 10)
	return []string{"SLURM_JOBID=" + job, "SLURM_JOB_ID=" + job, "SLURM_STEPID=" + step, "SLURM_STEP_ID=" + step}
}

// Run runs the program for job jobID's step stepID and waits for it, at
// most limit (ProgramTimeout) before killing its process group. A program
// that is not set, or that root may not read and execute, is skipped, as
// slurmstepd skips it. The error says how a program that ran failed.
func Run(ctx context.Context, program string, jobID, stepID uint32, limit time.Duration) error {
	if program == "" || unix.Access(program, unix.R_OK|unix.X_OK) != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, program)
	cmd.Args = []string{program}
	cmd.Env = Env(jobID, stepID)
	cmd.Dir = "/" // standard streams unset: /dev/null
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	err := cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%s still running after %v: killed", program, limit)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", program, err)
	}
	return nil
}

// Entity names the job or step in slurmstepd's line: "JOB 7" for the
// batch script, "EXTERN STEP FOR 7" for an allocation, "STEP 7.0".
func Entity(jobID, stepID uint32) string {
	switch stepID {
	case BatchStep:
		return fmt.Sprintf("JOB %d", jobID)
	case ExternStep:
		return fmt.Sprintf("EXTERN STEP FOR %d", jobID)
	}
	return fmt.Sprintf("STEP %d.%d", jobID, stepID)
}

// Line is slurmstepd's error line for processes that outlived SIGKILL,
// as a batch job's error file shows it.
func Line(node string, jobID, stepID uint32, at time.Time) string {
	return fmt.Sprintf("slurmstepd-%s: error: *** %s STEPD TERMINATED ON %s AT %s DUE TO JOB NOT ENDING WITH SIGNALS ***\n",
		node, Entity(jobID, stepID), node, at.Format("2006-01-02T15:04:05"))
}
