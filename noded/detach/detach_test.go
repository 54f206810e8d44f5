package detach

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStart runs small shells as helpers: one that says ready, one that
// says why not, one that dies silently and one that never answers.
func TestStart(t *testing.T) {
	cases := map[string]struct {
		script  string
		timeout time.Duration
		wantErr string
	}{
		"ready":                {script: `echo ready >&3; echo logged`, timeout: 10 * time.Second},
		"says why not":         {script: `echo "no cgroup for job 7" >&3`, timeout: 10 * time.Second, wantErr: "no cgroup for job 7"},
		"exits without a word": {script: `exit 3`, timeout: 10 * time.Second, wantErr: "exited during startup"},
		"never answers":        {script: `exec sleep 30`, timeout: 200 * time.Millisecond, wantErr: "not ready after"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			logPath := filepath.Join(t.TempDir(), "helper.log")
			var seen int
			pid, err := StartLogged(exec.Command("/bin/sh", "-c", tc.script), logPath, tc.timeout, func(p int) { seen = p })
			switch {
			case tc.wantErr == "" && (err != nil || pid <= 0 || pid != seen):
				t.Fatalf("Start = %d, %v (started saw %d)", pid, err, seen)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("Start = %d, %v, want an error containing %q", pid, err, tc.wantErr)
			}
			if tc.wantErr == "" {
				deadline := time.Now().Add(10 * time.Second)
				for {
					b, _ := os.ReadFile(logPath)
					if strings.Contains(string(b), "logged") {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("helper's output never reached its log: %q", b)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
		})
	}
}
