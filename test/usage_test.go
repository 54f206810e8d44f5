//go:build integration

package test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// usageScript: the batch shell's python touches 50 MiB and burns 0.3 s
// of CPU; then step 0 touches 20 MiB, burns 0.3 s and waits for the file
// "stop", so that sstat can see it run.
const usageScript = `#!/bin/bash
#SBATCH -n1 -o out.txt
unset LOAM_CONF
python3 -c '
import time
b = bytearray(50 << 20)
for i in range(0, len(b), 4096): b[i] = 1
t = time.process_time()
while time.process_time() - t < 0.3: pass
'
srun -n1 python3 -c '
import os, time
b = bytearray(20 << 20)
for i in range(0, len(b), 4096): b[i] = 1
t = time.process_time()
while time.process_time() - t < 0.3: pass
while not os.path.exists("stop"): time.sleep(0.05)
'
echo rc=$?
`

// TestUsageMeasuredBySacctAndSstat: sstat shows the running step's
// numbers, and once the job ended sacct shows what its batch step and its
// srun step used, within sane bounds.
func TestUsageMeasuredBySacctAndSstat(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 2})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, usageScript, nil)
	s.waitJob(t, id, job.Running, nodedWait)

	var live []string
	// The step's resident size passes 20 MiB once it touched its memory.
	clustertest.Eventually(t, nodedWait, "sstat to show step 0 holding 20 MiB", func() error {
		r := s.run(t, dir, nil, "", nil, "sstat", "-j", fmt.Sprint(id), "-P", "-n", "-o", "JobID,MaxRSS,NTasks,AveCPU,Pids")
		live = strings.Split(strings.TrimSpace(r.stdout), "|")
		if len(live) != 5 || live[0] != fmt.Sprintf("%d.0", id) {
			return fmt.Errorf("sstat: %q %q", r.stdout, r.stderr)
		}
		if rss, err := usageSize(live[1]); err != nil || rss < 20<<20 {
			return fmt.Errorf("sstat: MaxRSS %q", live[1])
		}
		return nil
	})
	if rss := parseUsageSize(t, live[1]); rss > 1<<30 || live[2] != "1" || live[3] == "" || live[4] == "" {
		t.Errorf("sstat: %q: want MaxRSS under 1 GiB, one task, an AveCPU, its pids", live)
	}
	if err := os.WriteFile(filepath.Join(dir, "stop"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s.waitJob(t, id, job.Completed, nodedWait)

	r := s.run(t, dir, nil, "", nil, "sacct", "-j", fmt.Sprint(id), "-P", "-n", "-o", "JobID,MaxRSS,TotalCPU,NTasks")
	rows := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		f := strings.Split(l, "|")
		rows[f[0]] = f
	}
	job, batch, step := rows[fmt.Sprint(id)], rows[fmt.Sprintf("%d.batch", id)], rows[fmt.Sprintf("%d.0", id)]
	if job == nil || batch == nil || step == nil {
		t.Fatalf("sacct: %q %q", r.stdout, r.stderr)
	}
	if job[1] != "" || parseCPUTime(t, job[2]) < parseCPUTime(t, batch[2])+parseCPUTime(t, step[2])-0.002 {
		t.Errorf("job line %q: want no MaxRSS and TotalCPU the sum of the steps'", job)
	}
	if rss := parseUsageSize(t, batch[1]); rss < 50<<20 || rss > 1<<30 || parseCPUTime(t, batch[2]) < 0.2 || batch[3] != "1" {
		t.Errorf("batch step %q: want MaxRSS 50 MiB to 1 GiB, TotalCPU >= 0.2 s, one task", batch)
	}
	if rss := parseUsageSize(t, step[1]); rss < 20<<20 || rss > 1<<30 || parseCPUTime(t, step[2]) < 0.2 {
		t.Errorf("step 0 %q: want MaxRSS 20 MiB to 1 GiB, TotalCPU >= 0.2 s", step)
	}
}

// parseUsageSize reads sacct's "64604K", "50M", "1.50G" or "1000".
func parseUsageSize(t *testing.T, s string) int64 {
	t.Helper()
	n, err := usageSize(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func usageSize(s string) (int64, error) {
	mult := int64(1)
	if i := strings.IndexAny(s, "KMGT"); i > 0 {
		mult = int64(1) << (10 * (strings.IndexByte("KMGT", s[i]) + 1))
		s = s[:i]
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q: %w", s, err)
	}
	return int64(v * float64(mult)), nil
}

// parseCPUTime reads sacct's TotalCPU: "MM:SS.mmm" or "[D-]HH:MM:SS", in
// seconds.
func parseCPUTime(t *testing.T, s string) float64 {
	t.Helper()
	days := 0.0
	if d, rest, ok := strings.Cut(s, "-"); ok {
		n, _ := strconv.Atoi(d)
		days, s = float64(n), rest
	}
	parts := strings.Split(s, ":")
	secs := 0.0
	for _, p := range parts {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil {
			t.Fatalf("CPU time %q: %v", s, err)
		}
		secs = secs*60 + v
	}
	return days*86400 + secs
}

// usageStepsScript: step 0 touches 20 MiB, burns 0.3 s of CPU and ends;
// step 1 touches 30 MiB and waits for its job to be cancelled.
const usageStepsScript = `#!/bin/bash
#SBATCH -n1 -o out.txt
unset LOAM_CONF
srun -n1 python3 -c '
import time
b = bytearray(20 << 20)
for i in range(0, len(b), 4096): b[i] = 1
t = time.process_time()
while time.process_time() - t < 0.3: pass
'
srun -n1 python3 -c '
import time
b = bytearray(30 << 20)
for i in range(0, len(b), 4096): b[i] = 1
time.sleep(600)
'
`

// TestUsageStepShowsWhileJobRuns: a finished step's MaxRSS and TotalCPU
// show in sacct while its job still runs (the node sends them when the
// step ends), and a step killed with its job is measured too.
func TestUsageStepShowsWhileJobRuns(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 2})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, usageStepsScript, nil)
	s.waitJob(t, id, job.Running, nodedWait)

	sacct := func() map[string][]string {
		r := s.run(t, dir, nil, "", nil, "sacct", "-j", fmt.Sprint(id), "-P", "-n", "-o", "JobID,State,MaxRSS,TotalCPU")
		rows := map[string][]string{}
		for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			f := strings.Split(l, "|")
			if len(f) == 4 {
				rows[f[0]] = f
			}
		}
		return rows
	}
	step0, step1 := fmt.Sprintf("%d.0", id), fmt.Sprintf("%d.1", id)
	var rows map[string][]string
	clustertest.Eventually(t, nodedWait, "sacct to show step 0's numbers while step 1 runs", func() error {
		rows = sacct()
		if st := rows[step1]; st == nil || st[1] != "RUNNING" {
			return fmt.Errorf("step 1: %q", rows[step1])
		}
		if st := rows[step0]; st == nil || st[2] == "" {
			return fmt.Errorf("step 0: %q", rows[step0])
		}
		return nil
	})
	if rows[fmt.Sprint(id)][1] != "RUNNING" {
		t.Errorf("job line %q: want the job still running", rows[fmt.Sprint(id)])
	}
	st := rows[step0]
	if rss := parseUsageSize(t, st[2]); rss < 20<<20 || rss > 1<<30 || parseCPUTime(t, st[3]) < 0.2 {
		t.Errorf("step 0 %q: want MaxRSS 20 MiB to 1 GiB, TotalCPU >= 0.2 s", st)
	}

	// Step 1 has touched its 30 MiB once sstat sees it.
	clustertest.Eventually(t, nodedWait, "sstat to show step 1 holding 30 MiB", func() error {
		r := s.run(t, dir, nil, "", nil, "sstat", "-j", step1, "-P", "-n", "-o", "MaxRSS")
		if rss, err := usageSize(strings.TrimSpace(r.stdout)); err != nil || rss < 30<<20 {
			return fmt.Errorf("sstat: %q %q", r.stdout, r.stderr)
		}
		return nil
	})
	s.run(t, dir, nil, "", nil, "scancel", fmt.Sprint(id))
	s.waitJob(t, id, job.Cancelled, nodedWait)
	clustertest.Eventually(t, nodedWait, "sacct to show step 1's numbers", func() error {
		rows = sacct()
		if st := rows[step1]; st == nil || st[2] == "" {
			return fmt.Errorf("step 1: %q", rows[step1])
		}
		return nil
	})
	if rss := parseUsageSize(t, rows[step1][2]); rss < 30<<20 || rss > 1<<30 {
		t.Errorf("step 1 killed with its job %q: want MaxRSS 30 MiB to 1 GiB", rows[step1])
	}
}
