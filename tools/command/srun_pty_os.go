package command

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/pkg/api"
)

// ttyTerminal is srun's standard input when it is a terminal.
type ttyTerminal struct {
	fd    int
	saved *unix.Termios
}

// stdinTerminal returns srun's standard input as a terminal; the error
// is ENOTTY when it is not one.
func stdinTerminal() (ptyTerminal, error) {
	fd := int(os.Stdin.Fd())
	if _, err := unix.IoctlGetTermios(fd, unix.TCGETS); err != nil {
		return nil, err
	}
	return &ttyTerminal{fd: fd}, nil
}

func (t *ttyTerminal) size() (api.StepPty, error) {
	ws, err := unix.IoctlGetWinsize(t.fd, unix.TIOCGWINSZ)
	if err != nil {
		return api.StepPty{}, err
	}
	return api.StepPty{Rows: ws.Row, Cols: ws.Col}, nil
}

// raw sets what cfmakeraw sets, as the peer's srun does: no echo, no
// line editing, no signals from keys, no output processing.
func (t *ttyTerminal) raw() error {
	old, err := unix.IoctlGetTermios(t.fd, unix.TCGETS)
	if err != nil {
		return err
	}
	r := *old
	r.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	r.Oflag &^= unix.OPOST
	r.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	r.Cflag &^= unix.CSIZE | unix.PARENB
	r.Cflag |= unix.CS8
	r.Cc[unix.VMIN], r.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(t.fd, unix.TCSETS, &r); err != nil {
		return err
	}
	t.saved = old
	return nil
}

func (t *ttyTerminal) restore() {
	if t.saved != nil {
		_ = unix.IoctlSetTermios(t.fd, unix.TCSETS, t.saved)
	}
}

// watch lasts as long as srun: like the signals it forwards, a change
// after the step ended is dropped, never fatal (SIGWINCH is ignored by
// default anyway).
func (t *ttyTerminal) watch(ch chan<- os.Signal) { signal.Notify(ch, syscall.SIGWINCH) }
