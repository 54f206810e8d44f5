package trigger

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOSRunnerRun: Run gives the program exactly Env, reports its exit
// status, and kills its process group past Timeout.
func TestOSRunnerRun(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "env")
	script := filepath.Join(dir, "s.sh")
	body := "#!/bin/sh\nenv > " + out + "\ncase \"$MODE\" in fail) exit 7;; hang) sleep 30 & wait;; esac\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(mode string, timeout time.Duration) error {
		t.Helper()
		res, err := OSRunner{}.Run(Exec{Path: script, Argv: []string{"s.sh"}, UID: uint32(os.Getuid()),
			GID: uint32(os.Getgid()), Env: []string{"MODE=" + mode, "SLURM_JOB_ID=5"}, Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-res:
			return err
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: not reaped", mode)
			return nil
		}
	}
	if err := run("ok", 0); err != nil {
		t.Errorf("exit 0: %v", err)
	}
	env, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(env), "SLURM_JOB_ID=5\n") || strings.Contains(string(env), "HOME=") {
		t.Errorf("environment: %q, want only what Env names (and the shell's own)", env)
	}
	var ee *exec.ExitError
	if err := run("fail", 0); err == nil || !asExit(err, &ee) || ee.ExitCode() != 7 {
		t.Errorf("exit 7: %v", err)
	}
	start := time.Now()
	if err := run("hang", 200*time.Millisecond); err == nil || time.Since(start) > 10*time.Second {
		t.Errorf("past its timeout: %v after %s, want killed at once", err, time.Since(start))
	}
}

func asExit(err error, ee **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	*ee = e
	return ok
}
