//go:build integration

package test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/noded/nodedtest"
	"github.com/loamhpc/loam/test/clustertest"
)

// testTerminal is a pseudo-terminal the test types into, as a user's
// terminal window: srun runs on its slave, the test reads the master.
type testTerminal struct {
	master, slave *os.File
	mu            sync.Mutex
	out           bytes.Buffer
	done          chan struct{}
}

func newTestTerminal(t *testing.T, rows, cols uint16) *testTerminal {
	t.Helper()
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols}); err != nil {
		t.Fatal(err)
	}
	slave, err := os.OpenFile("/dev/pts/"+strconv.FormatUint(uint64(n), 10), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	tt := &testTerminal{master: os.NewFile(uintptr(fd), "/dev/ptmx"), slave: slave, done: make(chan struct{})}
	t.Cleanup(func() { tt.master.Close(); tt.slave.Close() })
	return tt
}

// read collects what the terminal shows until every slave is closed.
func (tt *testTerminal) read() {
	defer close(tt.done)
	buf := make([]byte, 4096)
	for {
		n, err := tt.master.Read(buf)
		tt.mu.Lock()
		tt.out.Write(buf[:n])
		tt.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (tt *testTerminal) shown() string {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	return tt.out.String()
}

// await waits until the terminal showed want.
func (tt *testTerminal) await(t *testing.T, want string) {
	t.Helper()
	clustertest.Eventually(t, 30*time.Second, strconv.Quote(want), func() error {
		if !strings.Contains(tt.shown(), want) {
			return errors.New("terminal shows " + strconv.Quote(tt.shown()))
		}
		return nil
	})
}

// typeIn types s as a user at the keyboard.
func (tt *testTerminal) typeIn(t *testing.T, s string) {
	t.Helper()
	if _, err := tt.master.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// resize changes the window's size, as dragging its corner does.
func (tt *testTerminal) resize(t *testing.T, rows, cols uint16) {
	t.Helper()
	rc, err := tt.master.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var ioErr error
	if err := rc.Control(func(fd uintptr) {
		ioErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols})
	}); err != nil || ioErr != nil {
		t.Fatalf("resize: %v %v", err, ioErr)
	}
}

func (tt *testTerminal) termios(t *testing.T) unix.Termios {
	t.Helper()
	rc, err := tt.master.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var tio *unix.Termios
	var ioErr error
	if err := rc.Control(func(fd uintptr) { tio, ioErr = unix.IoctlGetTermios(int(fd), unix.TCGETS) }); err != nil || ioErr != nil {
		t.Fatalf("terminal settings: %v %v", err, ioErr)
	}
	return *tio
}

// onTerminal starts bin/srun with args as user, on tt as its controlling
// terminal, and returns it and its end.
func (s *srunCluster) onTerminal(t *testing.T, tt *testTerminal, user *syscall.Credential, dir string, args ...string) (*exec.Cmd, <-chan error) {
	t.Helper()
	if err := tt.slave.Chown(int(user.Uid), int(user.Gid)); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(s.bin, "srun"), args...)
	cmd.Dir, cmd.Env = dir, s.env("PWD="+dir, "TERM=xterm", "PS1=pty$ ")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tt.slave, tt.slave, tt.slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0, Credential: user}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tt.slave.Close()
	go tt.read()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	return cmd, waited
}

// TestSrunPtyInteractive runs real srun --pty bash -i as a user in a
// terminal the test made, types commands into it as that user would and
// checks that the shell ran on a terminal of its own, of the window's
// size and owned by the user, with job control; that srun exits with the
// shell's status; and that the terminal got its settings back.
func TestSrunPtyInteractive(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 2})
	uid, gid := nodedtest.User(t, "loampty")
	if err := os.Chmod(s.c.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := sharedDir(t)
	tt := newTestTerminal(t, 33, 111)
	before := tt.termios(t)

	user := &syscall.Credential{Uid: uid, Gid: gid}
	cmd, waited := s.onTerminal(t, tt, user, dir, "--pty", "bash", "--norc", "--noprofile", "-i")

	tt.await(t, "pty$ ")
	tt.typeIn(t, "tty; stat -c %U $(tty); stty size\r")
	tt.await(t, "\r\n33 111\r\n")
	// A resized window reaches the shell's terminal (srun's SIGWINCH);
	// a line typed meanwhile may still see the old size, so ask again.
	tt.resize(t, 40, 120)
	clustertest.Eventually(t, 10*time.Second, "the new window size", func() error {
		if strings.Contains(tt.shown(), "40 120\r\n") {
			return nil
		}
		tt.typeIn(t, "stty size\r")
		return errors.New("not resized yet: " + strconv.Quote(tt.shown()))
	})
	tt.typeIn(t, "exit\r")
	select {
	case err := <-waited:
		if err != nil {
			t.Errorf("srun --pty: %v; terminal showed %q", err, tt.shown())
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("srun --pty did not end; terminal showed %q", tt.shown())
	}
	<-tt.done
	out := tt.shown()
	for _, want := range []string{"/dev/pts/", "\r\nloampty\r\n33 111\r\n", "exit\r\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal showed %q, lacks %q", out, want)
		}
	}
	for _, bad := range []string{"no job control", "not a tty", "srun: error"} {
		if strings.Contains(out, bad) {
			t.Errorf("terminal showed %q, with %q", out, bad)
		}
	}
	if after := tt.termios(t); after != before {
		t.Errorf("terminal settings after srun %+v, want them back as before %+v", after, before)
	}
}

// TestSrunPtyTwoTasks: with -n2 only task 0 has the terminal; task 1's
// output is dropped and its failure reported after the terminal is back
// to normal, as the peer's srun did for "srun --pty -n2 tty".
func TestSrunPtyTwoTasks(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 2})
	tt := newTestTerminal(t, 24, 80)
	cmd, waited := s.onTerminal(t, tt, &syscall.Credential{}, sharedDir(t), "--pty", "-n2", "tty")
	var err error
	select {
	case err = <-waited:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("srun --pty -n2 did not end; terminal showed %q", tt.shown())
	}
	<-tt.done
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("srun --pty -n2 tty: %v, want exit status 1", err)
	}
	out := tt.shown()
	if !strings.HasPrefix(out, "/dev/pts/") || !strings.HasSuffix(out, "\r\nsrun: error: n01: task 1: Exited with exit code 1\r\n") ||
		strings.Count(out, "\r\n") != 2 {
		t.Errorf("terminal showed %q, want task 0's terminal and task 1's failure", out)
	}
}
