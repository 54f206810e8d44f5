package shim

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestScriptLimitsSetWhileHeld: a stack limit set once AwaitExec returned
// reaches the program. Set earlier it could be lost: the kernel puts back
// at the end of the shim's exec the stack limit it read at its start.
func TestScriptLimitsSetWhileHeld(t *testing.T) {
	for i := 0; i < 20; i++ {
		child, parent, err := Channel()
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		cmd := exec.Command("/bin/sh", Args(nil, []string{"/bin/sh", "-c", "ulimit -Ss"})...)
		cmd.ExtraFiles, cmd.Stdout = []*os.File{child}, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		child.Close()
		if err := AwaitExec(parent, 10*time.Second); err != nil {
			t.Fatal(err)
		}
		var r unix.Rlimit
		if err := unix.Prlimit(cmd.Process.Pid, unix.RLIMIT_STACK, nil, &r); err != nil {
			t.Fatal(err)
		}
		want := uint64(12 << 20)
		if r.Max < want {
			t.Skipf("hard stack limit %d below the test's", r.Max)
		}
		if err := unix.Prlimit(cmd.Process.Pid, unix.RLIMIT_STACK, &unix.Rlimit{Cur: want, Max: r.Max}, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := parent.Write([]byte("go\n")); err != nil {
			t.Fatal(err)
		}
		parent.Close()
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(out.String()); got != "12288" {
			t.Fatalf("run %d: the program's stack limit is %s KB, want 12288", i, got)
		}
	}
}

// TestAwaitExecBounded: a process that never says it runs does not hold
// its starter longer than asked.
func TestAwaitExecBounded(t *testing.T) {
	child, parent, err := Channel()
	if err != nil {
		t.Fatal(err)
	}
	defer child.Close()
	defer parent.Close()
	if err := AwaitExec(parent, 10*time.Millisecond); err == nil {
		t.Fatal("AwaitExec returned without the process's byte")
	}
}

// TestScriptAborted: closing the starter's end without a line ends the
// held process with 127, the program never run.
func TestScriptAborted(t *testing.T) {
	child, parent, err := Channel()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", Args(nil, []string{"/bin/echo", "ran"})...)
	var out bytes.Buffer
	cmd.ExtraFiles, cmd.Stdout = []*os.File{child}, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	child.Close()
	if err := AwaitExec(parent, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	parent.Close()
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 127 || out.Len() != 0 {
		t.Fatalf("aborted shim: %v, output %q; want exit 127 and nothing run", err, out.String())
	}
}

// TestArgsPWD: the shell's own PWD reaches the program only when the
// environment had one, as slurmstepd execs tasks without a shell (the
// peer's srun --export=NONE task has no PWD).
func TestArgsPWD(t *testing.T) {
	for name, env := range map[string][]string{"without": {"A=1"}, "with": {"A=1", "PWD=/"}} {
		cmd := exec.Command("/bin/sh", Args(env, []string{"/usr/bin/env"})...)
		cmd.Env, cmd.Dir = env, "/"
		r, w, err := Channel()
		if err != nil {
			t.Fatal(err)
		}
		cmd.ExtraFiles = []*os.File{r}
		if _, err := w.WriteString("go\n"); err != nil {
			t.Fatal(err)
		}
		out, err := cmd.Output()
		w.Close()
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, want := strings.Contains(string(out), "PWD="), name == "with"; got != want {
			t.Errorf("%s PWD: PWD in the program's environment is %v:\n%s", name, got, out)
		}
	}
}
