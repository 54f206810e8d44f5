package store

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

const crashChildEnv = "LOAM_STORE_CRASH_CHILD"

// TestMain lets the test binary act as the crashing child of
// TestCrashKeepsAcknowledgedIDs.
func TestMain(m *testing.M) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		crashChild(dir)
		return
	}
	os.Exit(m.Run())
}

// crashChild hands out job ids as loam-ctld does (the sequence is written in
// the same transaction as the job) from 4 goroutines and prints each id once
// its commit returned, until it is killed.
func crashChild(dir string) {
	s, err := Open(dir, Options{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	next, err := s.NextJobID()
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	for w := 0; w < 4; w++ {
		go func() {
			for {
				mu.Lock()
				id := next
				next++
				p := s.Enqueue(func(tx *Tx) error {
					return errors.Join(tx.PutJob(id, []byte(fmt.Sprintf("req-%d", id)), []byte("PENDING")), tx.SetNextJobID(id+1))
				})
				mu.Unlock()
				if err := p.Wait(); err != nil {
					continue
				}
				mu.Lock()
				fmt.Fprintf(out, "%d\n", id)
				out.Flush()
				mu.Unlock()
			}
		}()
	}
	select {}
}

// TestCrashKeepsAcknowledgedIDs kills a writer with SIGKILL while it commits
// and checks that every id it acknowledged is stored with its data, and that
// the sequence resumes past all of them.
func TestCrashKeepsAcknowledgedIDs(t *testing.T) {
	dir := t.TempDir()
	var acked []uint32
	for round := 0; round < 2; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+dir)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		for n := 0; n < 300 && sc.Scan(); n++ {
			line := sc.Text()
			id, err := strconv.ParseUint(line, 10, 32)
			if err != nil {
				cmd.Process.Kill()
				t.Fatalf("child said %q", line)
			}
			acked = append(acked, uint32(id))
		}
		cmd.Process.Signal(syscall.SIGKILL)
		for sc.Scan() { // ids acknowledged before the kill landed
			if id, err := strconv.ParseUint(strings.TrimSpace(sc.Text()), 10, 32); err == nil {
				acked = append(acked, uint32(id))
			}
		}
		cmd.Wait()
	}
	s := open(t, dir)
	stored := map[uint32]string{}
	if err := s.LoadJobs(func(r JobRow) error { stored[r.ID] = string(r.Request); return nil }); err != nil {
		t.Fatal(err)
	}
	seen := map[uint32]bool{}
	var maxID uint32
	for _, id := range acked {
		if seen[id] {
			t.Errorf("id %d acknowledged twice: reused after the crash", id)
		}
		seen[id] = true
		if stored[id] != fmt.Sprintf("req-%d", id) {
			t.Errorf("acknowledged id %d stored as %q", id, stored[id])
		}
		maxID = max(maxID, id)
	}
	next, err := s.NextJobID()
	if err != nil || next <= maxID {
		t.Errorf("next id %d (%v), want above %d", next, err, maxID)
	}
	t.Logf("%d ids acknowledged over 2 crashes, next id %d", len(acked), next)
}
