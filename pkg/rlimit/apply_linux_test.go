package rlimit

import (
	"bufio"
	"io"
	"os/exec"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// child starts a process to set limits on, with NOFILE 256 soft, 512
// hard and STACK 8 MiB soft, 64 MiB hard (lowering needs no privilege).
// The process is cat, and a line it echoes back proves it is past its
// exec: Linux puts back the stack limit it read when an exec began, so a
// limit set during the exec could be lost (as it was on a machine whose
// hard stack limit is unlimited).
func child(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("cat")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stdin.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if _, err := io.WriteString(stdin, "ready\n"); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("cat echoed %q, %v", line, err)
	}
	pid := cmd.Process.Pid
	for res, r := range map[int]unix.Rlimit{unix.RLIMIT_NOFILE: {Cur: 256, Max: 512}, unix.RLIMIT_STACK: {Cur: 8 << 20, Max: 64 << 20}} {
		if err := unix.Prlimit(pid, res, &r, nil); err != nil {
			t.Skipf("cannot set limits on a child: %v", err)
		}
	}
	return pid
}

func limitOf(t *testing.T, pid, res int) unix.Rlimit {
	t.Helper()
	var r unix.Rlimit
	if err := unix.Prlimit(pid, res, nil, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestApply(t *testing.T) {
	tests := map[string]struct {
		reqs       []Request
		conf       Set
		wantNOFILE unix.Rlimit
		wantSTACK  unix.Rlimit
		wantErrs   []string
		wantNotes  []string
	}{
		"propagated soft limits are set, hard limits kept": {
			reqs:       []Request{{Name: "NOFILE", Value: 100}, {Name: "STACK", Value: 16 << 20}},
			conf:       All,
			wantNOFILE: unix.Rlimit{Cur: 100, Max: 512}, wantSTACK: unix.Rlimit{Cur: 16 << 20, Max: 64 << 20},
		},
		"slurm.conf does not propagate it: left as the node has it": {
			reqs:       []Request{{Name: "NOFILE", Value: 100}, {Name: "STACK", Value: 16 << 20}},
			conf:       mustParse(t, "STACK"),
			wantNOFILE: unix.Rlimit{Cur: 256, Max: 512}, wantSTACK: unix.Rlimit{Cur: 16 << 20, Max: 64 << 20},
		},
		"--propagate applies it whatever slurm.conf says": {
			reqs:       []Request{{Name: "NOFILE", Value: 100, User: true}},
			conf:       0,
			wantNOFILE: unix.Rlimit{Cur: 100, Max: 512}, wantSTACK: unix.Rlimit{Cur: 8 << 20, Max: 64 << 20},
		},
		"above the hard limit: lowered to it": {
			reqs:       []Request{{Name: "NOFILE", Value: 4096}, {Name: "STACK", Value: unix.RLIM_INFINITY}},
			conf:       All,
			wantNOFILE: unix.Rlimit{Cur: 512, Max: 512}, wantSTACK: unix.Rlimit{Cur: 64 << 20, Max: 64 << 20},
			wantNotes: []string{"RLIMIT_NOFILE: reducing req:4096 to max:512",
				"RLIMIT_STACK: reducing req:inf to max:67108864"},
		},
		"above the hard limit with --propagate: slurmstepd's error, limit unchanged": {
			reqs:       []Request{{Name: "NOFILE", Value: 4096, User: true}, {Name: "STACK", Value: unix.RLIM_INFINITY, User: true}},
			conf:       All,
			wantNOFILE: unix.Rlimit{Cur: 256, Max: 512}, wantSTACK: unix.Rlimit{Cur: 8 << 20, Max: 64 << 20},
			wantErrs: []string{"Can't propagate RLIMIT_NOFILE of 4096 from submit host: Invalid argument",
				"Can't propagate RLIMIT_STACK of 'unlimited' from submit host: Invalid argument"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			pid := child(t)
			errs, notes := Apply(pid, tc.reqs, tc.conf)
			if diff := cmp.Diff(tc.wantErrs, errs); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantNotes, notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantNOFILE, limitOf(t, pid, unix.RLIMIT_NOFILE)); diff != "" {
				t.Errorf("NOFILE (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantSTACK, limitOf(t, pid, unix.RLIMIT_STACK)); diff != "" {
				t.Errorf("STACK (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCapRSS(t *testing.T) {
	pid := child(t)
	if err := CapRSS(pid, 1024); err != nil {
		t.Fatal(err)
	}
	want := unix.Rlimit{Cur: 1 << 30, Max: 1 << 30} // the peer's job of 1024 MB: ulimit -m 1048576
	if diff := cmp.Diff(want, limitOf(t, pid, unix.RLIMIT_RSS)); diff != "" {
		t.Errorf("RSS (-want +got):\n%s", diff)
	}
	if err := CapRSS(pid, 4096); err != nil { // never raised
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, limitOf(t, pid, unix.RLIMIT_RSS)); diff != "" {
		t.Errorf("RSS after a larger cap (-want +got):\n%s", diff)
	}
}

func TestCapture(t *testing.T) {
	var stack unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_STACK, &stack); err != nil {
		t.Fatal(err)
	}
	got := Capture()
	if len(got) != len(Names) || got[3] != (Limit{Name: "STACK", Soft: stack.Cur}) {
		t.Errorf("Capture() = %v, want every limit with STACK %d fourth", got, stack.Cur)
	}
}

func mustParse(t *testing.T, s string) Set {
	t.Helper()
	set, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return set
}
