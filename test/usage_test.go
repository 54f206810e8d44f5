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
