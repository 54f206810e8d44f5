package command

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strconv"
	"syscall"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/jobopt"
)

// sbatchRetries is how often sbatch resubmits when the controller asks
// it to retry (Slurm's MAX_RETRIES).
const sbatchRetries = 15

// Sbatch runs sbatch with args and returns its exit status: 0 once the job
// is accepted (with --wait, the job's exit status), 255 for options the
// client rejects, 1 for script problems and controller rejections.
func Sbatch(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "sbatch")
	warnExitVars(env, w, "SLURM_EXIT_ERROR")
	p := &jobopt.Parser{Prog: "sbatch", Argv0: env.Argv0, UserKnown: userKnown(env), GroupKnown: groupKnown(env), Env: sbatchEnv(env), Cwd: env.Cwd, Now: env.Now(), Root: env.UID == 0,
		Host: env.Host, RLimits: env.RLimits, ReadFile: env.ReadFile}
	_, userUmask := env.Getenv("SLURM_UMASK")
	p.UmaskAdded = !userUmask && env.Umask >= 0 // sbatchEnv added it
	cl, err := p.CommandLine(args)
	if err != nil {
		return w.exit(optionError(w, err))
	}
	if informed(w, cl.Action, sbatchHelp, sbatchUsage) {
		return w.exit(0)
	}
	script, code := readScript(env, w, cl)
	if code != 0 {
		return w.exit(code)
	}
	res, err := p.Submission(cl, script)
	if err != nil {
		return w.exit(optionError(w, err))
	}
	w.lines(res.Warnings)
	if res.Verbose > 0 {
		w.lines(jobopt.DefinedLines("sbatch", res.Defined))
	}
	return w.exit(submit(ctx, env, w, res))
}

// sbatchEnv is the environment sbatch hands the parser: the caller's,
// plus what sbatch adds for the job (SLURM_PRIO_PROCESS, SLURM_UMASK).
func sbatchEnv(env *Env) []string {
	out := append([]string(nil), env.Environ...)
	if _, ok := env.Getenv("SLURM_PRIO_PROCESS"); !ok {
		out = append(out, "SLURM_PRIO_PROCESS=0")
	}
	if _, ok := env.Getenv("SLURM_UMASK"); !ok && env.Umask >= 0 {
		out = append(out, fmt.Sprintf("SLURM_UMASK=%04o", env.Umask))
	}
	return out
}

// optionError prints a parser error and returns its exit status.
func optionError(w *output, err error) int {
	var je *jobopt.Error
	if errors.As(err, &je) {
		w.lines(je.Lines)
		return je.Code
	}
	w.errf("%v", err)
	return jobopt.ExitError
}

// readScript reads the batch script: --wrap needs none; a path is looked
// for as sbatch does (ScriptCandidates); no path means standard input.
func readScript(env *Env, w *output, cl *jobopt.CommandLine) ([]byte, int) {
	if cl.Wrap != nil {
		return nil, 0
	}
	if cl.Script == "" {
		var buf []byte
		tmp := make([]byte, 64<<10)
		for {
			n, err := env.Stdin.Read(tmp)
			buf = append(buf, tmp[:n]...)
			if err != nil {
				break
			}
		}
		return buf, 0
	}
	pathEnv, _ := env.Getenv("PATH")
	for _, c := range cl.ScriptCandidates(pathEnv) {
		if env.Exists(c) {
			cl.Script = c
			break
		}
	}
	name := cl.Script
	if !path.IsAbs(name) {
		name = path.Join(env.Cwd, name)
	}
	data, err := env.ReadFile(name)
	if errors.Is(err, syscall.EISDIR) {
		// Slurm's sbatch opens a directory and reads nothing from it:
		// "Batch script is empty!".
		return nil, 0
	}
	if err != nil {
		w.errf("Unable to open file %s", cl.Script)
		return nil, errorExit(env)
	}
	return data, 0
}

// submit sends the job and prints what sbatch prints.
func submit(ctx context.Context, env *Env, w *output, res *jobopt.Result) int {
	req := &api.SubmitRequest{Job: res.Request, TestOnly: res.TestOnly, SubmitHost: env.Host}
	req.Job.SubmitDir, req.Job.SubmitHost, req.Job.AllocSID = env.Cwd, env.Host, env.Sid
	c, err := env.Dial(ctx)
	if err != nil {
		return submitFailed(w, res.TestOnly, res.Verbose, err, errorExit(env))
	}
	var resp *api.SubmitResponse
	for retry := 0; ; retry++ {
		resp, err = c.Submit(ctx, req)
		var ae *api.Error
		// A controller that cannot be reached was tried for MessageTimeout
		// already (the client's connect tries): Slurm's sbatch then fails.
		if err == nil || !errors.As(err, &ae) || !ae.Retry || ae.Code == api.CodeCtldConnect || retry >= sbatchRetries {
			break
		}
		if retry == 0 {
			w.errf("Slurm temporarily unable to accept job, sleeping and retrying")
		}
		if env.Sleep(ctx, time.Duration(retry+1)*time.Second) != nil {
			break
		}
	}
	if err != nil {
		return submitFailed(w, res.TestOnly, res.Verbose, err, errorExit(env))
	}
	for _, m := range resp.Warnings {
		w.raw("sbatch: warning: " + m + "\n")
	}
	if t := resp.TestOnly; res.TestOnly && t != nil {
		if !res.Quiet { // an informational line: -Q hides it, as the peer's sbatch
			printTestOnly(env, w, "sbatch", t)
		}
		return 0
	}
	switch {
	case res.Quiet:
	case res.Parsable && resp.ClusterName != "":
		w.printf("%d;%s\n", resp.JobID, resp.ClusterName)
	case res.Parsable:
		w.printf("%d\n", resp.JobID)
	default:
		w.printf("Submitted batch job %d\n", resp.JobID)
	}
	if res.Wait {
		w.flush()
		return waitJob(ctx, env, w, c, resp.JobID)
	}
	return 0
}

// printTestOnly prints a --test-only estimate as sbatch and srun do.
func printTestOnly(env *Env, w *output, prog string, t *api.TestOnlyResult) {
	tf := newTimeFormat(env, env.Now())
	w.raw(fmt.Sprintf("%s: Job %d to start at %s using %d processors on nodes %s in partition %s\n",
		prog, t.JobID, tf.appendTime(nil, t.StartTime, "Unknown"), t.Processors, t.Nodes, t.Partition))
}

// submitFailed prints a rejected submission as Slurm does: the
// controller's detail first, then "Batch job submission failed: <text>"
// ("allocation failure: <text>" for --test-only). An unknown GRES is one
// line with no prefix, with or without --test-only, as in Slurm. It
// returns fail (SLURM_EXIT_ERROR or 1), 1 for --test-only.
func submitFailed(w *output, testOnly bool, verbose int, err error, fail int) int {
	if testOnly {
		fail = 1
	}
	var ae *api.Error
	if errors.As(err, &ae) {
		if ae.Detail != "" && ae.Code != api.CodeInvalidGRES {
			w.errf("%s", ae.Detail)
		}
		if ae.Code == api.CodeInvalidGRES {
			if verbose > 0 && ae.Detail != "" {
				w.errf("%s", ae.Detail)
			}
			w.errf("%s", ae.Message)
			return fail
		}
		if testOnly {
			w.raw("allocation failure: " + ae.Message + "\n")
		} else {
			w.errf("Batch job submission failed: %s", ae.Message)
		}
		return fail
	}
	w.errf("Batch job submission failed: %v", err)
	return fail
}

// waitJob is --wait: poll until every record of the job has ended, with
// sbatch's back-off (2 s, then 8 s, then 32 s), and return the largest
// exit status (1 for a job killed by a signal).
func waitJob(ctx context.Context, env *Env, w *output, c Controller, id uint32) int {
	sleep := 2 * time.Second
	for {
		if err := env.Sleep(ctx, sleep); err != nil {
			return 1
		}
		if sleep < 32*time.Second {
			sleep *= 4
		}
		resp, err := c.Jobs(ctx, &api.JobQuery{JobIDs: []string{strconv.FormatUint(uint64(id), 10)}})
		var ae *api.Error
		switch {
		case err != nil && errors.As(err, &ae) && ae.Code == api.CodeInvalidJobID,
			err == nil && len(resp.Jobs) == 0:
			w.errf("Job %d no longer found and exit code not found", id)
			return 0
		case err != nil:
			w.errf("Currently unable to load job state information, retrying: %s", errText(err))
			continue
		}
		if code, done := exitStatus(resp.Jobs); done {
			return code
		}
	}
}

// exitStatus returns the largest exit status of jobs once all have ended.
func exitStatus(jobs []api.Job) (int, bool) {
	code := 0
	for _, j := range jobs {
		if !j.JobState.IsTerminal() {
			return 0, false
		}
		ec := j.ExitCode.Status
		if j.ExitCode.Signal != 0 || j.JobState == job.NodeFail {
			ec = 1
		}
		code = max(code, ec)
	}
	return code, true
}

// informed prints what --help, --usage or --version asked for and reports
// whether the command is done.
func informed(w *output, a jobopt.Action, help, usage string) bool {
	switch a {
	case jobopt.Help:
		w.printf("%s", help)
	case jobopt.Usage:
		w.printf("%s", usage)
	case jobopt.Version:
		w.printf("%s\n", versionLine)
	case jobopt.ListMPI:
		w.printf("MPI plugin types are...\n")
		for _, t := range jobopt.MPITypes {
			w.printf("\t%s\n", t)
		}
	default:
		return false
	}
	return true
}
