//go:build integration

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

var submitted = regexp.MustCompile(`^Submitted batch job (\d+)\n$`)

// TestToolsHeldJob drives one held job through the user commands against
// a real loam-ctld: sbatch, squeue, scontrol show/update/release/hold,
// scancel and sacct.
func TestToolsHeldJob(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 2, GPUs: 4})
	c.StartCtld(t)
	dir := t.TempDir()

	out := mustTool(t, c, dir, "sbatch", "--hold", "-J", "held1", "-t", "30", "--wrap", "sleep 100")
	m := submitted.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("sbatch printed %q", out)
	}
	id := m[1]

	q := mustTool(t, c, dir, "squeue")
	want := fmt.Sprintf("%18s    normal    held1     root PD       0:00      1 (JobHeldUser)\n", id)
	if !strings.HasSuffix(q, want) || !strings.HasPrefix(q, "             JOBID PARTITION     NAME     USER ST") {
		t.Errorf("squeue:\n%s\nwant the line\n%s", q, want)
	}
	show := mustTool(t, c, dir, "scontrol", "show", "job", id)
	for _, s := range []string{"JobId=" + id + " JobName=held1", "JobState=PENDING Reason=JobHeldUser",
		"TimeLimit=00:30:00", "Partition=normal", "WorkDir=" + dir} {
		if !strings.Contains(show, s) {
			t.Errorf("scontrol show job lacks %q:\n%s", s, show)
		}
	}
	if r := runTool(t, c, dir, "", "scontrol", "update", "JobId="+id, "TimeLimit=10", "Comment=hi"); r.code != 0 || r.stdout+r.stderr != "" {
		t.Errorf("scontrol update: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	show = mustTool(t, c, dir, "scontrol", "-o", "show", "job", id)
	if !strings.Contains(show, "TimeLimit=00:10:00") || !strings.Contains(show, "Comment=hi") {
		t.Errorf("after update:\n%s", show)
	}
	// release prints nothing and exits 0, as Slurm's; hold again keeps it
	// from starting (no nodes answer here anyway).
	for _, cmd := range [][]string{{"release", id}, {"hold", id}} {
		if r := runTool(t, c, dir, "", "scontrol", cmd...); r.code != 0 || r.stdout+r.stderr != "" {
			t.Errorf("scontrol %s: exit %d, %q %q", cmd[0], r.code, r.stdout, r.stderr)
		}
	}
	if r := runTool(t, c, dir, "", "scancel", id); r.code != 0 || r.stdout+r.stderr != "" {
		t.Errorf("scancel: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	all := mustTool(t, c, dir, "squeue", "-t", "all", "-h", "-o", "%i %T")
	if all != id+" CANCELLED\n" {
		t.Errorf("squeue -t all = %q", all)
	}
	acct := mustTool(t, c, dir, "sacct", "-j", id, "-X", "-P", "-n", "-o", "JobID,JobName,State")
	if !strings.HasPrefix(acct, id+"|held1|CANCELLED") {
		t.Errorf("sacct = %q", acct)
	}
}

// TestToolsErrors checks Slurm's messages and statuses for what does not
// exist, with a real controller answering.
func TestToolsErrors(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 1})
	c.StartCtld(t)
	dir := t.TempDir()
	cases := map[string]struct {
		cmd      []string
		wantErr  string
		wantCode int
	}{
		"squeue of an unknown job": {[]string{"squeue", "-j", "999999"},
			"slurm_load_jobs error: Invalid job id specified\n", 1},
		"scancel of an unknown job is silent": {[]string{"scancel", "999999"}, "", 0},
		"scancel -v of an unknown job": {[]string{"scancel", "-v", "999999"},
			"scancel: Terminating job 999999\nscancel: error: Kill job error on job id 999999: Invalid job id specified\n", 0},
		"scancel of a malformed id": {[]string{"scancel", "abc"}, "scancel: error: Invalid job id abc\n", 1},
		"scontrol show of an unknown job": {[]string{"scontrol", "show", "job", "999999"},
			"slurm_load_jobs error: Invalid job id specified\n", 1},
		"sbatch to an unknown partition": {[]string{"sbatch", "-p", "nosuch", "--wrap", "true"}, "", 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := runTool(t, c, dir, "", tc.cmd[0], tc.cmd[1:]...)
			if r.code != tc.wantCode {
				t.Errorf("exit = %d, want %d (stderr %q)", r.code, tc.wantCode, r.stderr)
			}
			if tc.wantErr != "" && r.stderr != tc.wantErr {
				t.Errorf("stderr = %q, want %q", r.stderr, tc.wantErr)
			}
			if tc.cmd[0] == "sbatch" && !strings.Contains(r.stderr, "sbatch: error: Batch job submission failed: Invalid partition name specified") {
				t.Errorf("sbatch stderr = %q", r.stderr)
			}
		})
	}
}

// TestToolsJobRuns runs a job on a fake node and follows it with squeue,
// sinfo and sacct until it completes.
func TestToolsJobRuns(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 2, GPUs: 4})
	d := c.StartCtld(t)
	nodes := []*clustertest.FakeNode{c.StartNode(t, d, 0), c.StartNode(t, d, 1)}
	dir := t.TempDir()
	out := mustTool(t, c, dir, "sbatch", "--parsable", "-J", "runner", "--gres=gpu:2", "--wrap", "true")
	id := strings.TrimSpace(out)
	n, err := strconv.ParseUint(id, 10, 32)
	if err != nil {
		t.Fatalf("sbatch --parsable printed %q", out)
	}
	var host *clustertest.FakeNode
	clustertest.Eventually(t, 10*time.Second, "squeue to show the job running", func() error {
		q := mustTool(t, c, dir, "squeue", "-h", "-o", "%i %t %N")
		for _, nd := range nodes {
			if q == id+" R "+nd.Name+"\n" {
				host = nd
				return nil
			}
		}
		return fmt.Errorf("squeue: %q", q)
	})
	host.Launch(t, uint32(n), 10*time.Second)
	si := mustTool(t, c, dir, "sinfo", "-h", "-o", "%P %D %t %N")
	if !strings.Contains(si, "normal* 1 mix "+host.Name) && !strings.Contains(si, "normal* 1 alloc "+host.Name) {
		t.Errorf("sinfo:\n%s", si)
	}
	if err := host.End(uint32(n), job.ExitCode{Status: 3}); err != nil {
		t.Fatal(err)
	}
	clustertest.Eventually(t, 10*time.Second, "the job to end", func() error {
		q := mustTool(t, c, dir, "squeue", "-t", "all", "-h", "-o", "%i %T %R")
		if q != id+" FAILED (NonZeroExitCode)\n" {
			return fmt.Errorf("squeue: %q", q)
		}
		return nil
	})
	acct := mustTool(t, c, dir, "sacct", "-j", id, "-X", "-P", "-n", "-o", "JobID,State,ExitCode,NodeList")
	if acct != id+"|FAILED|3:0|"+host.Name+"\n" {
		t.Errorf("sacct = %q", acct)
	}
}

// TestToolsSbatchScript submits a script with #SBATCH lines and checks
// what the controller recorded, then asks for a --test-only estimate.
func TestToolsSbatchScript(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 2, GPUs: 4})
	d := c.StartCtld(t)
	c.StartNode(t, d, 0)
	c.StartNode(t, d, 1)
	dir := t.TempDir()
	script := "#!/bin/sh\n#SBATCH -J fromscript\n#SBATCH --time=5 --hold\n#SBATCH --comment=\"two words\"\necho hi\n"
	if err := os.WriteFile(filepath.Join(dir, "job.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out := mustTool(t, c, dir, "sbatch", "job.sh", "arg1")
	m := submitted.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("sbatch printed %q", out)
	}
	show := mustTool(t, c, dir, "scontrol", "show", "job", m[1])
	for _, s := range []string{"JobName=fromscript", "TimeLimit=00:05:00", "Comment=two words ",
		"Command=" + filepath.Join(dir, "job.sh") + " arg1", "StdOut=" + dir + "/slurm-" + m[1] + ".out"} {
		if !strings.Contains(show, s) {
			t.Errorf("scontrol show job lacks %q:\n%s", s, show)
		}
	}
	r := runTool(t, c, dir, "", "sbatch", "--test-only", "--wrap", "true")
	if r.code != 0 || r.stdout != "" || !regexp.MustCompile(`^sbatch: Job \d+ to start at \S+ using \d+ processors on nodes \S* in partition normal\n$`).MatchString(r.stderr) {
		t.Errorf("sbatch --test-only: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestToolsSrunTestOnly: srun --test-only prints the estimate as sbatch
// --test-only does and runs nothing; a refusal is "allocation failure:"
// with exit 1, as the peer's srun prints it.
func TestToolsSrunTestOnly(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 1})
	d := c.StartCtld(t)
	c.StartNode(t, d, 0)
	dir := t.TempDir()
	r := runTool(t, c, dir, "", "srun", "--test-only", "-n1", "touch", filepath.Join(dir, "ran"))
	if r.code != 0 || r.stdout != "" || !regexp.MustCompile(`^srun: Job \d+ to start at \S+ using 1 processors on nodes n01 in partition normal\n$`).MatchString(r.stderr) {
		t.Errorf("srun --test-only: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Errorf("srun --test-only ran its command")
	}
	if out := mustTool(t, c, dir, "squeue", "-h", "-t", "all"); out != "" {
		t.Errorf("srun --test-only left a job:\n%s", out)
	}
	r = runTool(t, c, dir, "", "srun", "--test-only", "-p", "nosuch", "true")
	if r.code != 1 || r.stderr != "srun: error: invalid partition specified: nosuch\nallocation failure: Invalid partition name specified\n" {
		t.Errorf("srun --test-only -p nosuch: exit %d stderr %q", r.code, r.stderr)
	}
}
