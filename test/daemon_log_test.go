//go:build integration

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loamhpc/loam/test/clustertest"
)

// TestCtldLogFromSlurmConf: without --log-level, loam-ctld logs at
// SlurmctldDebug into SlurmctldLogFile, as slurmctld does; SIGUSR2 reopens
// the file after logrotate moved it; scontrol reconfigure takes a new
// SlurmctldDebug, and setdebug still changes it at run time.
func TestCtldLogFromSlurmConf(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "slurmctld.log")
	c := clustertest.New(t, clustertest.Spec{Nodes: 1, Extra: "SlurmctldDebug=debug\nSlurmctldLogFile=" + logPath + "\n"})
	d := c.StartCtld(t)
	waitLog := func(path, want string) {
		t.Helper()
		clustertest.Eventually(t, 20*time.Second, fmt.Sprintf("%q in %s", want, path), func() error {
			b, _ := os.ReadFile(path)
			if !strings.Contains(string(b), want) {
				return fmt.Errorf("%s:\n%s", path, b)
			}
			return nil
		})
	}
	waitLog(logPath, `level=debug msg="cycle done"`)

	if err := os.Rename(logPath, logPath+".1"); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(d.Pid(), syscall.SIGUSR2); err != nil {
		t.Fatal(err)
	}
	waitLog(logPath, "log file reopened")

	conf, err := os.ReadFile(c.ConfPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(c.ConfPath, []byte(strings.Replace(string(conf), "SlurmctldDebug=debug", "SlurmctldDebug=error", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mustTool(t, c, dir, "scontrol", "reconfigure")
	quiet := strings.TrimSpace(strings.TrimPrefix(mustTool(t, c, dir, "sbatch", "--hold", "--wrap", "true"), "Submitted batch job "))
	mustTool(t, c, dir, "scontrol", "setdebug", "debug")
	loud := strings.TrimSpace(strings.TrimPrefix(mustTool(t, c, dir, "sbatch", "--hold", "--wrap", "true"), "Submitted batch job "))
	waitLog(logPath, `msg="job submitted" job_id=`+loud)
	if b, _ := os.ReadFile(logPath); strings.Contains(string(b), "job_id="+quiet+" ") {
		t.Errorf("job %s was submitted at SlurmctldDebug=error but its debug line was logged:\n%s", quiet, b)
	}
	if d.Log() != "" {
		t.Errorf("loam-ctld wrote to standard error with a log file set:\n%s", d.Log())
	}
}
