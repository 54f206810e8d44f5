package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// srunScriptTimeout bounds srun's prolog and epilog. Slurm's srun waits
// for them without limit; Loam kills the script's process group after
// this long, so that a hung script never holds srun forever.
const srunScriptTimeout = 10 * time.Minute

// srunConfScripts reads slurm.conf's SrunProlog and SrunEpilog the cheap
// way (slurmconf.Lookup), as srun's start-up cost matters; tests replace it.
var srunConfScripts = func() (prolog, epilog string) {
	p, err := filepath.Abs(client.ConfPath())
	if err != nil {
		return "", ""
	}
	vals, err := slurmconf.Lookup(os.DirFS("/"), strings.TrimPrefix(p, "/"), "SrunProlog", "SrunEpilog")
	if err != nil {
		return "", ""
	}
	last := func(k string) string {
		if v := vals[k]; len(v) > 0 {
			return v[len(v)-1]
		}
		return ""
	}
	return last("SrunProlog"), last("SrunEpilog")
}

// pickSrunScript is --prolog (or --epilog) when given, else slurm.conf's
// key; "none" runs nothing.
func pickSrunScript(opt, conf string) string {
	v := conf
	if opt != "" {
		v = opt
	}
	if strings.EqualFold(v, "none") {
		return ""
	}
	return v
}

// srunPrologFailed is the peer's message for a failed srun prolog (srun
// then exits 1).
func srunPrologFailed(rc int) string {
	return fmt.Sprintf("srun prolog failed rc = %d. Aborting step.", rc)
}

// srunScripts runs the srun prolog now and returns the epilog to run
// once the step ended ("" for none); code is srun's exit code when the
// prolog failed.
func (r *srunRun) srunScripts() (epilog string, code int) {
	st := &r.res.Step
	confProlog, confEpilog := "", ""
	if st.Prolog == "" || st.Epilog == "" {
		confProlog, confEpilog = srunConfScripts()
	}
	prolog, epilog := pickSrunScript(st.Prolog, confProlog), pickSrunScript(st.Epilog, confEpilog)
	if prolog != "" {
		if rc := r.runSrunScript(prolog, "prolog_srun"); rc != 0 {
			r.w.errf("%s", srunPrologFailed(rc))
			return epilog, 1
		}
	}
	return epilog, 0
}

// runSrunScript runs path with the step's command as its arguments in
// srun's environment and the job's, srun's standard output and error as
// its own, and SLURM_SCRIPT_CONTEXT set to context (prolog_srun,
// epilog_srun). It returns the exit status (1 when it could not run).
func (r *srunRun) runSrunScript(path, context string) int {
	env := append(append([]string(nil), r.env.Environ...), r.jobEnv...)
	if r.env.Umask >= 0 {
		env = append(env, fmt.Sprintf("SLURM_UMASK=%04o", r.env.Umask)) // as the peer's srun sets it
	}
	env = append(env, "SRUN_DEBUG=3", "SLURM_SCRIPT_CONTEXT="+context)
	if r.jobID != 0 {
		env = append(env, fmt.Sprintf("SLURM_JOB_ID=%d", r.jobID), fmt.Sprintf("SLURM_JOBID=%d", r.jobID))
	}
	dir := r.env.Cwd
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = "" // srun's own
	}
	return runScriptBounded(path, r.res.Step.Command, env, dir, r.env.Stdout, r.env.Stderr, srunScriptTimeout)
}

// runScriptBounded runs path args in its own process group, killed with
// the group at timeout.
func runScriptBounded(path string, args, env []string, dir string, stdout, stderr io.Writer, timeout time.Duration) int {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env, cmd.Dir, cmd.Stdout, cmd.Stderr = env, dir, stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode()
	}
	return 1
}
