package command

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime/debug"
	"syscall"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/jobopt"
)

// Salloc runs salloc with args: it obtains an interactive allocation,
// prints "salloc: Granted job allocation N", runs the command (the user's
// shell without one) on this host with SLURM_JOB_ID and the allocation's
// other variables set, then prints "salloc: Relinquishing job allocation
// N" and releases it. It returns the command's exit status.
func Salloc(ctx context.Context, env *Env, args []string) int {
	// srun and salloc live as long as their step or command: collect
	// garbage as usual (Main turns it off for the short commands).
	debug.SetGCPercent(100)
	return runSalloc(ctx, env, args, osStepHooks())
}

func runSalloc(ctx context.Context, env *Env, args []string, h stepHooks) int {
	env = lockedStderr(env) // the notice watch writes there too
	w := newOutput(env, "salloc")
	warnExitVars(env, w, "SLURM_EXIT_ERROR", "SLURM_EXIT_IMMEDIATE")
	p := &jobopt.Parser{Prog: "salloc", Argv0: env.Argv0, UserKnown: userKnown(env), GroupKnown: groupKnown(env), Env: env.Environ, Cwd: env.Cwd, Now: env.Now(), Root: env.UID == 0, Host: env.Host}
	res, err := p.Salloc(args)
	if err != nil {
		return w.exit(optionError(w, err))
	}
	if informed(w, res.Action, sallocHelp, sallocUsage) {
		return w.exit(0)
	}
	if msg := sallocConflict(res.Step); msg != "" {
		w.errf("%s", msg)
		return 1
	}
	if res.Step.Quiet {
		env = quietStderr(env)
		w = newOutput(env, "salloc")
	}
	w.lines(res.Warnings)
	if res.Step.Verbose > 0 {
		w.lines(jobopt.DefinedLines("salloc", res.Defined))
	}
	dir := res.Request.WorkDir
	if !checkChdir(env, w, dir) {
		return 1
	}
	c, err := dialSteps(ctx, env)
	if err != nil {
		w.errf("Job submit/allocate failed: %s", errText(err))
		return errorExit(env)
	}
	sigs := make(chan os.Signal, 8)
	stop := h.notify(sigs)
	defer stop()
	if res.Request.Hold && res.Step.Immediate == nil {
		c = heldNotice{stepController: c, w: w}
	}
	a := &allocator{c: c, w: w, prog: "salloc"}
	var al *api.Allocation
	var code int
	if res.Step.Immediate != nil {
		al, code = a.allocateImmediate(ctx, env, res.Request, *res.Step.Immediate, sigs)
	} else {
		al, code = a.allocate(ctx, env, res.Request, sigs)
	}
	if code != 0 {
		return code
	}
	if !a.st.granted { // else said while it was configuring (alloc_config.go)
		w.raw("salloc: Granted job allocation " + u32s(al.JobID) + "\n")
	}
	if res.Step.NoShell {
		a.notices.stop()
		return 0 // the allocation runs on until scancel or its time limit
	}
	argv := res.Step.Command
	if len(argv) == 0 {
		shell, _ := env.Getenv("SHELL")
		if shell == "" {
			shell = "/bin/sh"
		}
		argv = []string{shell}
	}
	watch := revokedUnder(ctx, a, al.JobID)
	// salloc's shell has SLURM_NODE_ALIASES, srun's tasks in an allocation
	// of their own or one named with --jobid do not (the peer).
	cmdEnv := append(append([]string(nil), env.Environ...), allocationEnv(env, al)...)
	cmdEnv = append(cmdEnv, "SLURM_NODE_ALIASES=(null)")
	ec := h.runLocal(argv, append(cmdEnv, res.OptionEnv...), dir, sigs)
	if watch != nil && watch.end.hasEnded() {
		w.raw(watch.end.afterCommand()) // a failed Prolog's revocation
		return sallocStatus(ec)         // revoked: nothing left to relinquish
	}
	w.raw("salloc: Relinquishing job allocation " + u32s(al.JobID) + "\n")
	a.release(ctx, ec)
	return sallocStatus(ec)
}

// sallocStatus is salloc's exit status for how its command ended: the
// command's own status; for a command killed by a signal 0 when the
// signal is one a user sends (SIGHUP, SIGINT, SIGQUIT, SIGKILL), else 1.
func sallocStatus(ec job.ExitCode) int {
	switch syscall.Signal(ec.Signal) {
	case 0:
		return ec.Status
	case syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGKILL:
		return 0
	}
	return 1
}

// runLocal runs salloc's command in the foreground with salloc's
// standard streams and returns how it ended. salloc itself ignores SIGINT
// (the terminal sends it to the command too) and passes other signals on.
func runLocal(argv, env []string, dir string, sigs <-chan os.Signal) job.ExitCode {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		os.Stderr.WriteString("salloc: error: _fork_command: Unable to find command \"" + argv[0] + "\"\n")
		return job.ExitCode{Status: 1}
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				if s != sigINT {
					_ = cmd.Process.Signal(s)
				}
			case <-done:
				return
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		ws := ee.Sys().(syscall.WaitStatus)
		if ws.Signaled() {
			return job.ExitCode{Signal: int(ws.Signal())}
		}
		return job.ExitCode{Status: ws.ExitStatus()}
	}
	if err != nil {
		return job.ExitCode{Status: 1}
	}
	return job.ExitCode{}
}
