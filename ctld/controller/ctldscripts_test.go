package controller

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/ctld/trigger"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/test/clustertest"
)

// fakeScripts records the controller's scripts. An epilog ends at once
// (exit 0); a prolog runs until the test ends it (end).
type fakeScripts struct {
	mu    sync.Mutex
	runs  []trigger.Exec
	ends  map[string]chan error // by "context job id", the running prologs
	epilo []map[string]string   // the epilogs' environments
}

func (f *fakeScripts) Run(e trigger.Exec) (<-chan error, error) {
	ch := make(chan error, 1)
	env := envMap(e.Env)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.runs = append(f.runs, e)
	if env["SLURM_SCRIPT_CONTEXT"] == epilogContext {
		f.epilo = append(f.epilo, env)
		ch <- nil
		return ch, nil
	}
	if f.ends == nil {
		f.ends = map[string]chan error{}
	}
	f.ends[env["SLURM_JOB_ID"]] = ch
	return ch, nil
}

// prologEnv waits for job id's prolog and returns its environment.
func (f *fakeScripts) prologEnv(t *testing.T, id uint32) map[string]string {
	t.Helper()
	var env map[string]string
	clustertest.Eventually(t, 10*time.Second, fmt.Sprintf("prolog of job %d", id), func() error {
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, e := range f.runs {
			if m := envMap(e.Env); m["SLURM_JOB_ID"] == fmt.Sprint(id) && m["SLURM_SCRIPT_CONTEXT"] == prologContext {
				env = m
				return nil
			}
		}
		return errors.New("not started")
	})
	return env
}

// end ends job id's running prolog with err.
func (f *fakeScripts) end(t *testing.T, id uint32, err error) {
	t.Helper()
	f.prologEnv(t, id)
	f.mu.Lock()
	ch := f.ends[fmt.Sprint(id)]
	f.mu.Unlock()
	ch <- err
}

// epilogs waits for n epilogs and returns their environments.
func (f *fakeScripts) epilogs(t *testing.T, n int) []map[string]string {
	t.Helper()
	var out []map[string]string
	clustertest.Eventually(t, 10*time.Second, fmt.Sprintf("%d epilogs", n), func() error {
		f.mu.Lock()
		defer f.mu.Unlock()
		if len(f.epilo) < n {
			return fmt.Errorf("%d epilogs", len(f.epilo))
		}
		out = slices.Clone(f.epilo)
		return nil
	})
	return out
}

func envMap(env []string) map[string]string {
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return m
}

// scriptsHarness is a harness whose slurm.conf ends with extra, its
// scripts recorded.
func scriptsHarness(t *testing.T, extra string) (*harness, *fakeScripts) {
	t.Helper()
	h := newHarness(t)
	text, err := os.ReadFile(h.conf)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.conf, append(text, extra...), 0o644); err != nil {
		t.Fatal(err)
	}
	h.restart()
	f := &fakeScripts{}
	h.c.trig.scripts = f
	return h, f
}

const ctldScriptsConf = "PrologSlurmctld=/bin/true\nEpilogSlurmctld=/bin/true\nRequeueExit=3,10-12\nRequeueExitHold=4\n"

// TestCtldPrologConfiguring: a job given its nodes is CONFIGURING (squeue
// CF, Reason=None, as on the peer while its prolog slept) and nothing is
// launched; the scheduler goes on starting other jobs meanwhile; once the
// prolog exits 0 the job runs and launches. The prolog's environment is
// the peer's (env dumped by a PrologSlurmctld).
func TestCtldPrologConfiguring(t *testing.T) {
	h, f := scriptsHarness(t, ctldScriptsConf)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob(func(q *job.Request) {
		q.Name, q.StdOut = "B-sleep", "/tmp/o-%j"
	}))
	h.cycle()
	if j := h.job(fmt.Sprint(id)); j.JobState != job.Configuring || j.StateReason != job.ReasonNone {
		t.Fatalf("while the prolog runs: %s %s, want CONFIGURING None", j.JobState, j.StateReason)
	}
	env := f.prologEnv(t, id)
	want := map[string]string{
		"SLURM_CLUSTER_NAME": "unit", "SLURM_JOBID": fmt.Sprint(id), "SLURM_JOB_ID": fmt.Sprint(id),
		"SLURM_JOB_CPUS_PER_NODE": "1", // no SLURM_JOB_ACCOUNT: no account without accounting
		"SLURM_JOB_GID":           fmt.Sprint(alice), "SLURM_JOB_GROUP": h.job(fmt.Sprint(id)).GroupName,
		"SLURM_JOB_NAME": "B-sleep", "SLURM_JOB_NODELIST": "n01", "SLURM_JOB_NUM_NODES": "1",
		"SLURM_JOB_PARTITION": "normal", "SLURM_JOB_RESTART_COUNT": "0", "SLURM_JOB_UID": fmt.Sprint(alice),
		"SLURM_JOB_USER": h.job(fmt.Sprint(id)).UserName, "SLURM_JOB_WORK_DIR": "/tmp",
		"SLURM_JOB_STDIN": "/dev/null", "SLURM_JOB_STDOUT": "/tmp/o-%j",
		"SLURM_SCRIPT_CONTEXT": "prolog_slurmctld",
	}
	if diff := cmp.Diff(want, env); diff != "" {
		t.Errorf("prolog environment (-want +got):\n%s", diff)
	}
	if len(n.Running()) != 0 {
		t.Errorf("launched before the prolog ended: %v", n.Running())
	}
	other := h.mustSubmit(alice, simpleJob())
	h.cycle()
	if j := h.job(fmt.Sprint(other)); j.JobState != job.Configuring {
		t.Errorf("a job submitted while a prolog runs: %s, want CONFIGURING (scheduling goes on)", j.JobState)
	}
	f.end(t, id, nil)
	h.waitState(fmt.Sprint(id), job.Running)
	n.Launch(t, id, 5*time.Second)
}

// TestCtldPrologFails: a failing PrologSlurmctld requeues a batch job
// (PENDING Reason=BeginTime, Restarts=1, ExitCode 0:0), cancels a
// --no-requeue one and an interactive allocation (CANCELLED 0:0), as on
// the peer; EpilogSlurmctld runs after each, with the new restart count.
func TestCtldPrologFails(t *testing.T) {
	h, f := scriptsHarness(t, ctldScriptsConf)
	h.node("n01")
	batch := h.mustSubmit(alice, simpleJob())
	noRequeue := h.mustSubmit(alice, simpleJob(func(q *job.Request) { q.Requeue = new(bool) }))
	var sub api.SubmitResponse
	if err := h.call(alice, api.PathAllocate, api.AllocateRequest{Job: job.Request{Name: "salloc", WorkDir: "/tmp"}}, &sub); err != nil {
		t.Fatal(err)
	}
	h.cycle()
	var al api.Allocation
	if err := h.call(alice, api.PathAllocationWait, api.AllocationWaitRequest{JobID: sub.JobID}, &al); err != nil || al.Ready {
		t.Errorf("allocation while its prolog runs: ready %t (%v), want not ready", al.Ready, err)
	}
	for _, id := range []uint32{batch, noRequeue, sub.JobID} {
		f.end(t, id, errors.New("exit status 7"))
	}
	got := map[string]string{}
	for name, id := range map[string]uint32{"batch": batch, "no-requeue": noRequeue, "salloc": sub.JobID} {
		clustertest.Eventually(t, 10*time.Second, name, func() error {
			if j := h.job(fmt.Sprint(id)); j.JobState == job.Configuring {
				return errors.New("still configuring")
			}
			return nil
		})
		j := h.job(fmt.Sprint(id))
		got[name] = fmt.Sprintf("%s %s restarts=%d exit=%d:%d", j.JobState, j.StateReason, j.Restarts, j.ExitCode.Status, j.ExitCode.Signal)
	}
	want := map[string]string{
		"batch":      "PENDING BeginTime restarts=1 exit=0:0",
		"no-requeue": "CANCELLED None restarts=0 exit=0:0",
		"salloc":     "CANCELLED None restarts=0 exit=0:0",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after a failed prolog (-want +got):\n%s", diff)
	}
	restarts := map[string]string{}
	for _, env := range f.epilogs(t, 3) {
		restarts[env["SLURM_JOB_ID"]] = env["SLURM_JOB_RESTART_COUNT"] + " " + env["SLURM_JOB_EXIT_CODE2"]
	}
	wantR := map[string]string{fmt.Sprint(batch): "1 0:0", fmt.Sprint(noRequeue): "0 0:0", fmt.Sprint(sub.JobID): "0 0:0"}
	if diff := cmp.Diff(wantR, restarts); diff != "" {
		t.Errorf("epilogs' restart count and exit (-want +got):\n%s", diff)
	}
	h.c.mu.RLock()
	by := h.c.jobs[noRequeue].St.CancelledBy
	h.c.mu.RUnlock()
	if by == nil || *by != 0 {
		t.Errorf("cancelled by %v, want SlurmUser root (the peer's sacct: CANCELLED by 0)", by)
	}
	if runs := h.acctRuns(batch, true); len(runs) == 0 || !strings.HasPrefix(runs[0], fmt.Sprintf("%d REQUEUED 0:0 restarts=0", batch)) {
		t.Errorf("sacct -D of the requeued batch job: %q, want its run REQUEUED 0:0 (the peer's)", runs)
	}
}

// TestCtldPrologCancelled: a job cancelled while its prolog runs ends at
// once (nothing was launched); the prolog's later end changes nothing.
func TestCtldPrologCancelled(t *testing.T) {
	h, f := scriptsHarness(t, ctldScriptsConf)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	f.prologEnv(t, id)
	ids := []string{fmt.Sprint(id)}
	if rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: ids}}); firstErr(rs) != "" {
		t.Fatalf("cancel: %+v", rs)
	}
	h.waitState(ids[0], job.Cancelled)
	f.end(t, id, nil)
	f.epilogs(t, 1)
	h.cycle()
	if j := h.job(ids[0]); j.JobState != job.Cancelled || len(n.Running()) != 0 {
		t.Errorf("after the prolog ended: %s, launched %v; want CANCELLED, nothing", j.JobState, n.Running())
	}
}

// TestRequeueExit: a batch job exiting with a RequeueExit code is
// requeued (PENDING BeginTime, Restarts=1, ExitCode kept), one exiting
// with a RequeueExitHold code held (SPECIAL_EXIT, JobHeldUser), even with --no-requeue, as on the peer; another code fails it.
// EpilogSlurmctld runs once per run, with the raw exit status, before the
// restart is counted (the peer's SLURM_JOB_RESTART_COUNT=0, EXIT_CODE=768).
func TestRequeueExit(t *testing.T) {
	h, f := scriptsHarness(t, "RequeueExit=3,10-12\nRequeueExitHold=4\nEpilogSlurmctld=/bin/true\n")
	n := h.node("n01")
	codes := map[string]int{"exit 3": 3, "exit 11": 11, "exit 4 --no-requeue": 4, "exit 5": 5, "exit 0": 0}
	ids := map[string]uint32{}
	for name := range codes {
		ids[name] = h.mustSubmit(alice, simpleJob(func(q *job.Request) {
			if strings.Contains(name, "no-requeue") {
				q.Requeue = new(bool)
			}
		}))
	}
	h.cycle()
	for name, id := range ids {
		n.Launch(t, id, 5*time.Second)
		if err := n.End(id, job.ExitCode{Status: codes[name]}); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]string{}
	for name, id := range ids {
		clustertest.Eventually(t, 10*time.Second, name, func() error {
			if j := h.job(fmt.Sprint(id)); j.JobState == job.Running {
				return errors.New("still running")
			}
			return nil
		})
		j := h.job(fmt.Sprint(id))
		state := j.JobState
		if j.SpecialExit {
			state = job.SpecialExit
		}
		got[name] = fmt.Sprintf("%s %s restarts=%d exit=%d:%d held=%t", state, j.StateReason, j.Restarts,
			j.ExitCode.Status, j.ExitCode.Signal, j.Hold)
	}
	want := map[string]string{
		"exit 3":              "PENDING BeginTime restarts=1 exit=3:0 held=false",
		"exit 11":             "PENDING BeginTime restarts=1 exit=11:0 held=false",
		"exit 4 --no-requeue": "SPECIAL_EXIT JobHeldUser restarts=1 exit=4:0 held=true",
		"exit 5":              "FAILED NonZeroExitCode restarts=0 exit=5:0 held=false",
		"exit 0":              "COMPLETED None restarts=0 exit=0:0 held=false",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after the exit (-want +got):\n%s", diff)
	}
	epi := map[string]string{}
	for _, env := range f.epilogs(t, len(ids)) {
		epi[env["SLURM_JOB_ID"]] += fmt.Sprintf("[%s %s %s %s]", env["SLURM_JOB_EXIT_CODE"], env["SLURM_JOB_EXIT_CODE2"],
			env["SLURM_JOB_DERIVED_EC"], env["SLURM_JOB_RESTART_COUNT"])
	}
	wantE := map[string]string{
		fmt.Sprint(ids["exit 3"]):              "[768 3:0 0 0]",
		fmt.Sprint(ids["exit 11"]):             "[2816 11:0 0 0]",
		fmt.Sprint(ids["exit 4 --no-requeue"]): "[1024 4:0 0 0]",
		fmt.Sprint(ids["exit 5"]):              "[1280 5:0 0 0]",
		fmt.Sprint(ids["exit 0"]):              "[0 0:0 0 0]",
	}
	if diff := cmp.Diff(wantE, epi); diff != "" {
		t.Errorf("epilogs (-want +got):\n%s", diff)
	}
	// sacct -D: the ended run REQUEUED with its exit, its batch step
	// FAILED (the peer's "88 REQUEUED 3:0", "88.batch FAILED 3:0").
	id := ids["exit 3"]
	wantAcct := fmt.Sprintf("%d REQUEUED 3:0 restarts=0 elapsed=0 batch:FAILED:3:0", id)
	if runs := h.acctRuns(id, true); len(runs) == 0 || runs[0] != wantAcct {
		t.Errorf("sacct -D: %q, want first %q", runs, wantAcct)
	}
	// The pending record starts anew: the peer's "88 PENDING 0:0" while
	// scontrol shows ExitCode=3:0.
	wantPend := fmt.Sprintf("%d PENDING 0:0 restarts=1 elapsed=0", id)
	if runs := h.acctRuns(id, true); len(runs) != 2 || runs[1] != wantPend {
		t.Errorf("sacct -D: %q, want second %q", runs, wantPend)
	}
}

func TestRepeatedCounts(t *testing.T) {
	for name, tc := range map[string]struct {
		in   []int
		want string
	}{
		"one node":          {[]int{1}, "1"},
		"a run":             {[]int{64, 64, 32}, "64(x2),32"},
		"different":         {[]int{1, 2, 1}, "1,2,1"},
		"no nodes: nothing": {nil, ""},
	} {
		t.Run(name, func(t *testing.T) {
			if got := repeatedCounts(tc.in); got != tc.want {
				t.Errorf("repeatedCounts(%v) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestCtldScriptEnvArray: an array task's epilog environment, as the
// peer's (sbatch -a 1-2 -C "" --wrap "exit 1", task 2, dumped with env):
// the array variables, the constraint as given, the exit codes as raw
// wait status, "status:signal" and the highest step's.
func TestCtldScriptEnvArray(t *testing.T) {
	h := newHarness(t)
	r := &jobRecord{ID: 94, Req: &job.Request{Name: "B-arr", Script: "#!/bin/sh\n", WorkDir: "/tmp/peerB",
		StdOut: "/tmp/peerB/o-%j", StdErr: "/tmp/peerB/e-%j", Constraint: "ib", Comment: "hello", UserName: "root"}}
	r.St = jobStatus{Account: "research", Partition: "normal", ArrayJobID: 94, ArrayTask: 2, ArrayCount: 2,
		ArrayMin: 1, ArrayMax: 2, ArrayStep: 1, ExitCode: job.ExitCode{Status: 1},
		Derived: job.ExitCode{Signal: 9},
		Alloc:   []api.NodeAllocation{{Node: "n01", CPUs: 2}, {Node: "n02", CPUs: 2}}}
	h.c.mu.Lock()
	env := envMap(h.c.ctldScriptEnv(r, epilogContext, "acct"))
	h.c.mu.Unlock()
	delete(env, "SLURM_JOB_GROUP") // the host's name for gid 0
	want := map[string]string{
		"SLURM_ARRAY_JOB_ID": "94", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_ID": "2",
		"SLURM_ARRAY_TASK_MAX": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_STEP": "1",
		"SLURM_CLUSTER_NAME": "acct", "SLURM_JOBID": "94", "SLURM_JOB_ACCOUNT": "research",
		"SLURM_JOB_CONSTRAINTS": "ib", "SLURM_JOB_CPUS_PER_NODE": "2(x2)", "SLURM_JOB_DERIVED_EC": "9",
		"SLURM_JOB_EXIT_CODE2": "1:0", "SLURM_JOB_EXIT_CODE": "256", "SLURM_JOB_GID": "0",
		"SLURM_JOB_ID": "94", "SLURM_JOB_NAME": "B-arr", "SLURM_JOB_NODELIST": "n[01-02]",
		"SLURM_JOB_NUM_NODES": "2", "SLURM_JOB_PARTITION": "normal", "SLURM_JOB_RESTART_COUNT": "0",
		"SLURM_JOB_STDIN": "/dev/null", "SLURM_JOB_STDOUT": "/tmp/peerB/o-%j", "SLURM_JOB_UID": "0",
		"SLURM_JOB_STDERR": "/tmp/peerB/e-%j", "SLURM_JOB_COMMENT": "hello",
		"SLURM_JOB_USER": "root", "SLURM_JOB_WORK_DIR": "/tmp/peerB", "SLURM_SCRIPT_CONTEXT": "epilog_slurmctld",
	}
	if diff := cmp.Diff(want, env); diff != "" {
		t.Errorf("epilog environment (-want +got):\n%s", diff)
	}
}

// TestScriptStatus: how a failed script is logged, as slurmctld logs
// "prolog exit status 7:0".
func TestScriptStatus(t *testing.T) {
	exitErr := func(script string) error {
		t.Helper()
		err := exec.Command("/bin/sh", "-c", script).Run()
		if err == nil {
			t.Fatalf("%s: no error", script)
		}
		return err
	}
	got := map[string]string{
		"exit 7":       scriptStatus(exitErr("exit 7")),
		"killed":       scriptStatus(exitErr("kill -9 $$")),
		"not runnable": scriptStatus(errors.New("fork/exec /nope: no such file or directory")),
	}
	want := map[string]string{"exit 7": "7:0", "killed": "0:9", "not runnable": "127:0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestCheckedScripts: a script that is not an executable file is dropped
// with slurmctld's log line (the peer, PrologSlurmctld mode 644:
// "Invalid PrologSlurmctld(`/tmp/peerB/noexec.sh`): Permission denied",
// and its jobs then ran without it).
func TestCheckedScripts(t *testing.T) {
	if os.Getuid() == 0 {
		t.Log("as root, access(2) still refuses X_OK on a file with no x bit")
	}
	dir := t.TempDir()
	plain := dir + "/plain.sh"
	if err := os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, bad := checkedScripts(slurmconf.CtldScripts{PrologSlurmctld: plain, EpilogSlurmctld: dir + "/missing", RequeueExit: []int{3}})
	want := slurmconf.CtldScripts{RequeueExit: []int{3}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scripts kept (-want +got):\n%s", diff)
	}
	wantBad := []string{"Invalid PrologSlurmctld(`" + plain + "`): Permission denied",
		"Invalid EpilogSlurmctld(`" + dir + "/missing`): No such file or directory"}
	if diff := cmp.Diff(wantBad, bad); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if got, bad := checkedScripts(slurmconf.CtldScripts{PrologSlurmctld: "/bin/true"}); got.PrologSlurmctld != "/bin/true" || bad != nil {
		t.Errorf("an executable: %+v %v, want kept", got, bad)
	}
}
