package step

import (
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// ptyScript shows what task 0 sees of its terminal once srun's input
// says go; the other task shows that its output goes nowhere.
const ptyScript = `if [ "$SLURM_PROCID" != 0 ]; then echo dropped; exit 3; fi
tty; test -t 0 && echo stdin-is-a-terminal; test -t 1 && echo stdout-is-a-terminal
stty size; read -r line; echo "got $line"; stty size; echo to-stderr >&2`

// TestStepPty runs a step with srun --pty's terminal: task 0 runs on a
// pseudo-terminal of the requested size that srun's window changes
// resize, its input is srun's bytes and its output and standard error
// come back merged; task 1's output is dropped.
func TestStepPty(t *testing.T) {
	iso := isolator(t)
	srun := newFakeSrun(t)
	go srun.serve()
	step := api.StepCreateRequest{Argv: []string{"sh", "-c", ptyScript}, Pty: &api.StepPty{Rows: 30, Cols: 100}}
	dir := stepFixture(t, srun, &step, []int{0, 1})
	done := runFixture(t, iso, dir)
	got := srun.collect(func(fr api.StepIOFrame) {
		if fr.Kind == api.IOHello {
			srun.send(api.IOWinsize, 0, api.StepPty{Rows: 40, Cols: 120}.AppendWinsize(nil))
			srun.send(api.IOStdin, 0, []byte("hello\r"))
		}
	})
	if code := <-done; code != 0 {
		t.Errorf("step process exit status %d", code)
	}
	if diff := cmp.Diff(map[int]job.ExitCode{0: {}, 1: {Status: 3}}, got.Exits); diff != "" {
		t.Errorf("exits (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[uint32]string{}, got.Stderr); diff != "" {
		t.Errorf("standard error frames (-want +got):\n%s", diff)
	}
	if _, ok := got.Stdout[1]; ok {
		t.Errorf("task 1's output reached srun: %q", got.Stdout[1])
	}
	out := got.Stdout[0]
	// The terminal ends lines with CR LF and echoes the input line; the
	// size srun sent last is the one after the read. The echo of srun's
	// input may land between any two lines the script wrote before its
	// read, so those are looked for one by one.
	for _, want := range []string{"/dev/pts/", "\r\nstdin-is-a-terminal\r\n", "\r\nstdout-is-a-terminal\r\n",
		"hello\r\n", "got hello\r\n40 120\r\nto-stderr\r\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("task 0's output %q lacks %q", out, want)
		}
	}
	if !strings.Contains(out, "30 100\r\n") && strings.Count(out, "40 120\r\n") != 2 {
		t.Errorf("task 0's output %q shows neither the launch size nor the new one before the read", out)
	}
}

// TestOpenPty checks the pair itself: the slave belongs to the user and
// what is written to it comes out of the master.
func TestOpenPty(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chown of the terminal needs root")
	}
	master, slave, err := openPty(Credential{UID: 65534, GID: 65534})
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	defer slave.Close()
	fi, err := slave.Stat()
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 65534 || st.Gid != 65534 || fi.Mode().Perm() != 0o600 {
		t.Errorf("%s: owner %d:%d mode %v, want 65534:65534 -rw-------", slave.Name(), st.Uid, st.Gid, fi.Mode().Perm())
	}
	if _, err := slave.WriteString("x\n"); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	n, err := master.Read(buf)
	if err != nil || string(buf[:n]) != "x\r\n" {
		t.Errorf("master read %q, %v; want %q", buf[:n], err, "x\r\n")
	}
}

// TestStepPtyNoCommand: a command that is not there fails task 0 with
// slurmstepd's line on srun's standard error, not lost in the terminal.
func TestStepPtyNoCommand(t *testing.T) {
	iso := isolator(t)
	srun := newFakeSrun(t)
	go srun.serve()
	step := api.StepCreateRequest{Argv: []string{"/no/such/cmd"}, Pty: &api.StepPty{}}
	dir := stepFixture(t, srun, &step, []int{0})
	done := runFixture(t, iso, dir)
	got := srun.collect(nil)
	<-done
	want := stepOutcome{Hello: true, Done: true, Stdout: map[uint32]string{},
		Stderr: map[uint32]string{0: "slurmstepd-n1: error: execve(): /no/such/cmd: No such file or directory\n"},
		Exits:  map[int]job.ExitCode{0: {Status: 2}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("what srun heard (-want +got):\n%s", diff)
	}
}
