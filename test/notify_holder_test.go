//go:build integration

package test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/test/clustertest"
)

// readNotifyHolderPeer reads testdata/notify-holder-peer.txt: each case's
// standard error on the peer, up to and with the notice.
func readNotifyHolderPeer(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("testdata/notify-holder-peer.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, cur, done := map[string]string{}, "", false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "case "); ok {
			cur, done = name, false
			continue
		}
		if l, ok := strings.CutPrefix(line, "stderr "); ok && cur != "" && !done {
			out[cur] += l + "\n"
			done = strings.HasSuffix(l, ": hello world")
		}
	}
	if len(out) != 4 {
		t.Fatalf("testdata/notify-holder-peer.txt: %d cases, want 4", len(out))
	}
	return out
}

// TestNotifyHolder: scontrol notify to a job that srun or salloc holds,
// running or pending, exits 0 without output and the client prints
// "srun: MSG" or "salloc: MSG" once, where the peer's did
// (testdata/notify-holder-peer.txt).
func TestNotifyHolder(t *testing.T) {
	peer := readNotifyHolderPeer(t)
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 4})
	dir := sharedDir(t)
	tests := []struct {
		name string
		argv []string
		// running: the command marks itself and waits for its gate;
		// else the job stays pending and is cancelled.
		running bool
	}{
		{"srun-running", []string{"srun", "-N1", "bash", "-c", "echo $SLURM_JOB_ID > id-srun; " + gated("srun")}, true},
		{"salloc-running", []string{"salloc", "-N1", "bash", "-c", "echo $SLURM_JOB_ID > id-salloc; " + gated("salloc")}, true},
		{"srun-pending", []string{"srun", "-N1", "--begin=now+1hour", "true"}, false},
		{"salloc-pending", []string{"salloc", "-N1", "--begin=now+1hour", "true"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prog := tc.argv[0]
			cmd := exec.Command(filepath.Join(s.bin, prog), tc.argv[1:]...)
			cmd.Dir, cmd.Env = dir, s.env("PWD="+dir)
			var out, errb syncBuffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() { _ = cmd.Process.Kill() })
			id := holderJobID(t, dir, prog, tc.running, &errb)
			r := s.run(t, dir, nil, "", nil, "scontrol", "notify", id, "hello", "world")
			if r.code != 0 || r.stdout != "" || r.stderr != "" {
				t.Errorf("scontrol notify %s: exit %d stdout %q stderr %q, want 0 and nothing", id, r.code, r.stdout, r.stderr)
			}
			line := prog + ": hello world\n"
			clustertest.Eventually(t, nodedWait, "the notice", func() error {
				if !strings.Contains(errb.String(), line) {
					return fmt.Errorf("stderr %q", errb.String())
				}
				return nil
			})
			if tc.running {
				if err := os.WriteFile(filepath.Join(dir, "gate-"+prog), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			} else {
				s.run(t, dir, nil, "", nil, "scancel", id)
			}
			select {
			case <-exited:
			case <-time.After(nodedWait):
				t.Fatalf("%s did not end; stderr %q", prog, errb.String())
			}
			got := strings.ReplaceAll(errb.String(), id, "@ID@")
			if n := strings.Count(got, line); n != 1 {
				t.Errorf("the notice shown %d times, want once; stderr %q", n, got)
			}
			if want := peer[tc.name]; !strings.HasPrefix(got, want) {
				t.Errorf("stderr %q, want it to begin as the peer's %q", got, want)
			}
		})
	}
}

// holderJobID waits until the job of prog's allocation runs its command
// (which wrote the job id to id-PROG) or, for a pending one, until prog
// said it is queued, and returns the job id.
func holderJobID(t *testing.T, dir, prog string, running bool, stderr *syncBuffer) string {
	t.Helper()
	var id string
	queued := regexp.MustCompile(prog + `: job (\d+) queued and waiting for resources\n`)
	clustertest.Eventually(t, nodedWait, prog+"'s job", func() error {
		if !running {
			m := queued.FindStringSubmatch(stderr.String())
			if m == nil {
				return fmt.Errorf("stderr %q", stderr.String())
			}
			id = m[1]
			return nil
		}
		data, err := os.ReadFile(filepath.Join(dir, "id-"+prog))
		if _, serr := os.Stat(filepath.Join(dir, "running-"+prog)); err != nil || serr != nil {
			return fmt.Errorf("not running yet; stderr %q", stderr.String())
		}
		id = strings.TrimSpace(string(data))
		return nil
	})
	return id
}
