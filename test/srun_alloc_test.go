//go:build integration

package test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/noded/nodedtest"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestSrunOutsideAnAllocation: srun alone allocates a job for its step
// and releases it; salloc runs a command in an allocation; both run as the
// calling user; a job's tasks are reached with --jobid from outside.
func TestSrunOutsideAnAllocation(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 2, CPUs: 4})
	uid, gid := nodedtest.User(t, "loamsrun")
	// The user reads slurm.conf and reaches the controller's socket there.
	if err := os.Chmod(s.c.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	user := &syscall.Credential{Uid: uid, Gid: gid}
	dir := sharedDir(t)

	r := s.run(t, dir, user, "", nil, "srun", "-N2", "-n4", "-l", "bash", "-c", "echo $(id -u) $SLURM_NODEID $SLURM_STEP_NUM_TASKS $SLURM_JOB_NUM_NODES")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	slicesSort(lines)
	// Slurm lays -N2 -n4 out 3,1: every node one task, the first the rest.
	want := []string{fmt.Sprintf("0: %d 0 4 2", uid), fmt.Sprintf("1: %d 0 4 2", uid), fmt.Sprintf("2: %d 0 4 2", uid), fmt.Sprintf("3: %d 1 4 2", uid)}
	if diff := cmp.Diff(want, lines); diff != "" || r.code != 0 {
		t.Errorf("srun -N2 -n4 -l: exit %d, stderr %q, stdout (-want +got):\n%s", r.code, r.stderr, diff)
	}
	r = s.run(t, dir, user, "", nil, "srun", "-n2", "bash", "-c", "exit 3")
	// Tasks whose ends reach srun together are one line, as in Slurm; on
	// a loaded machine the two ends may come apart, one line each.
	together := strings.Contains(r.stderr, ": tasks 0-1: Exited with exit code 3")
	apart := strings.Contains(r.stderr, ": task 0: Exited with exit code 3") && strings.Contains(r.stderr, ": task 1: Exited with exit code 3")
	if r.code != 3 || !together && !apart {
		t.Errorf("srun of a failing step: exit %d, stderr %q", r.code, r.stderr)
	}
	r = s.run(t, dir, user, "", nil, "salloc", "-N2", "bash", "-c", "echo $SLURM_JOB_ID $SLURM_JOB_NUM_NODES $SLURM_JOB_NODELIST; srun hostname | wc -l")
	granted := regexp.MustCompile(`^salloc: Granted job allocation (\d+)\nsalloc: Relinquishing job allocation (\d+)\n$`).FindStringSubmatch(r.stderr)
	if r.code != 0 || granted == nil || granted[1] != granted[2] || r.stdout != granted[1]+" 2 n[01-02]\n2\n" {
		t.Fatalf("salloc: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	var salloced uint32
	fmt.Sscan(granted[1], &salloced)
	if j := s.waitJob(t, salloced, job.Completed, nodedWait); j.UserID != uid {
		t.Errorf("salloc's job ran as uid %d, want %d", j.UserID, uid)
	}
	acct := s.run(t, dir, nil, "", nil, "sacct", "-j", granted[1], "-P", "-n", "-o", "JobID,JobName,State")
	if want := fmt.Sprintf("%[1]s|interactive|COMPLETED\n%[1]s.0|hostname|COMPLETED\n", granted[1]); acct.stdout != want {
		t.Errorf("sacct of salloc's job: %q, want %q", acct.stdout, want)
	}

	// A step with --jobid from outside the job.
	id := s.sbatch(t, dir, "#!/bin/bash\nsleep 300\n", nil, "-N2", "-o", "/dev/null")
	s.waitJob(t, id, job.Running, nodedWait)
	r = s.run(t, dir, nil, "", nil, "srun", "--jobid", fmt.Sprint(id), "-l", "bash", "-c", "echo $SLURM_JOB_ID $SLURM_STEP_ID")
	if r.code != 0 || r.stdout != fmt.Sprintf("0: %d 0\n1: %d 0\n", id, id) && r.stdout != fmt.Sprintf("1: %d 0\n0: %d 0\n", id, id) {
		t.Errorf("srun --jobid: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	s.run(t, dir, nil, "", nil, "scancel", fmt.Sprint(id))
	s.waitJob(t, id, job.Cancelled, nodedWait)
	r = s.run(t, dir, nil, "", nil, "srun", "--jobid", fmt.Sprint(id), "true")
	if r.code != 1 || !strings.Contains(r.stderr, fmt.Sprintf("srun: Check SLURM_JOB_ID environment variable. Expired or invalid job %d", id)) {
		t.Errorf("srun --jobid of an ended job: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestSrunCtrlC sends srun two SIGINTs within a second, as a user pressing
// Ctrl-C twice: srun prints Slurm's lines, the tasks die of SIGINT, srun
// exits 130 and the step is accounted CANCELLED.
func TestSrunCtrlC(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 4})
	dir := sharedDir(t)
	cmd := exec.Command(filepath.Join(s.bin, "srun"), "-N1", "-n2", "bash", "-c", "echo started; exec sleep 60")
	cmd.Dir, cmd.Env = dir, s.env()
	var out, errb syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	clustertest.Eventually(t, nodedWait, "the tasks to start", func() error {
		if strings.Count(out.String(), "started") < 2 {
			return fmt.Errorf("stdout %q", out.String())
		}
		return nil
	})
	start := time.Now()
	_ = cmd.Process.Signal(syscall.SIGINT)
	clustertest.Eventually(t, 10*time.Second, "the status line", func() error {
		if !strings.Contains(errb.String(), "tasks 0-1: running") {
			return fmt.Errorf("stderr %q", errb.String())
		}
		return nil
	})
	_ = cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	got := regexp.MustCompile(`StepId=\d+\.0|CANCELLED AT \S+`).ReplaceAllString(errb.String(), "<step>")
	want := "srun: interrupt (one more within 1 sec to abort)\n" +
		"srun: <step> tasks 0-1: running\n" +
		"srun: sending Ctrl-C to <step>\n" +
		"srun: forcing job termination\n" +
		"srun: Job step aborted: Waiting up to 4 seconds for job step to finish.\n"
	if code != 130 || !strings.HasPrefix(got, want) {
		t.Errorf("srun after two Ctrl-C: exit %d (want 130), stderr:\n%s\nwant it to begin with:\n%s", code, got, want)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("srun took %s to end after the second Ctrl-C", took)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader.
type syncBuffer struct {
	mu  chan struct{}
	buf bytes.Buffer
}

func (b *syncBuffer) lock() {
	if b.mu == nil {
		b.mu = make(chan struct{}, 1)
	}
	b.mu <- struct{}{}
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.lock()
	defer func() { <-b.mu }()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.lock()
	defer func() { <-b.mu }()
	return b.buf.String()
}

func slicesSort(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// TestSrunEightNodes runs "srun -N 8 -n 64" across eight emulated nodes:
// every task runs once with its rank, and the step takes well under a
// second on an idle machine (bench/srun has the numbers; here the bound is
// loose for a loaded CI host).
func TestSrunEightNodes(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 8, CPUs: 8})
	dir := sharedDir(t)
	r := s.run(t, dir, nil, "", nil, "srun", "-N", "8", "-n", "64", "bash", "-c", "echo $SLURM_PROCID $SLURMD_NODENAME")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	seen := map[string]bool{}
	for _, l := range lines {
		rank, node, _ := strings.Cut(l, " ")
		var n int
		fmt.Sscan(rank, &n)
		if want := fmt.Sprintf("n%02d", n/8+1); node != want {
			t.Errorf("rank %s ran on %s, want %s", rank, node, want)
		}
		seen[rank] = true
	}
	if r.code != 0 || len(lines) != 64 || len(seen) != 64 {
		t.Fatalf("srun -N 8 -n 64: exit %d, %d lines, %d ranks; stderr %q", r.code, len(lines), len(seen), r.stderr)
	}
	for i := 0; i < 3; i++ {
		r := s.run(t, dir, nil, "", nil, "srun", "-N", "8", "-n", "64", "true")
		t.Logf("srun -N 8 -n 64 true: %s", r.took)
		if r.code != 0 || r.took > 10*time.Second {
			t.Errorf("srun -N 8 -n 64 true: exit %d in %s, stderr %q", r.code, r.took, r.stderr)
		}
	}
}
