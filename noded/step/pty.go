package step

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/pkg/api"
)

// ptyTask is the task that runs on the step's pseudo-terminal under srun
// --pty: task 0, as slurmstepd does. The step's other tasks get no input
// and their output is dropped, as the peer's were.
const ptyTask = 0

// openPty opens a new pseudo-terminal pair: the master, close-on-exec,
// and its unlocked slave, owned by the job's user (the task opens its
// terminal again as that user, e.g. for "tty" or a shell's job control).
func openPty(cred Credential) (master, slave *os.File, err error) {
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("open /dev/ptmx: %w", err)
	}
	master = os.NewFile(uintptr(fd), "/dev/ptmx")
	defer func() {
		if err != nil {
			master.Close()
		}
	}()
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		return nil, nil, fmt.Errorf("unlock pseudo-terminal: %w", err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		return nil, nil, fmt.Errorf("pseudo-terminal number: %w", err)
	}
	name := "/dev/pts/" + strconv.FormatUint(uint64(n), 10)
	slave, err = os.OpenFile(name, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("open %s: %w", name, err)
	}
	if err := ownTerminal(slave, cred); err != nil {
		slave.Close()
		return nil, nil, err
	}
	return master, slave, nil
}

// ownTerminal gives the terminal to the job's user, readable and writable
// by it alone.
func ownTerminal(f *os.File, cred Credential) error {
	if err := f.Chown(int(cred.UID), int(cred.GID)); err != nil {
		return fmt.Errorf("chown %s: %w", f.Name(), err)
	}
	if err := f.Chmod(0o600); err != nil {
		return fmt.Errorf("chmod %s: %w", f.Name(), err)
	}
	return nil
}

// setWinsize sets the terminal's size (the kernel tells its foreground
// processes with SIGWINCH); a size of 0x0 is left alone.
func setWinsize(master *os.File, size api.StepPty) error {
	if size.Rows == 0 && size.Cols == 0 {
		return nil
	}
	rc, err := master.SyscallConn()
	if err != nil {
		return err
	}
	var ioErr error
	err = rc.Control(func(fd uintptr) {
		ioErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &unix.Winsize{Row: size.Rows, Col: size.Cols})
	})
	if err != nil {
		return err
	}
	return ioErr
}

// dupFile is a second descriptor of f, close-on-exec: the task's input
// feed closes its own when srun's input ends, while the output pump
// still reads the master.
func dupFile(f *os.File) (*os.File, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	nfd := -1
	var dupErr error
	err = rc.Control(func(fd uintptr) { nfd, dupErr = unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0) })
	if err == nil {
		err = dupErr
	}
	if err != nil {
		return nil, fmt.Errorf("dup %s: %w", f.Name(), err)
	}
	return os.NewFile(uintptr(nfd), f.Name()), nil
}

// ptyStdio opens a task's streams under srun --pty: task 0's input, output
// and standard error are the slave of a new pseudo-terminal, which becomes
// its controlling terminal; what it writes reaches srun as its standard
// output, and srun's input is written to the master. Other tasks read
// /dev/null and write to it.
func (p *proc) ptyStdio(t *task) (taskFiles, error) {
	var f taskFiles
	if t.global != ptyTask {
		null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
		if err != nil {
			return f, err
		}
		f.in, f.out, f.err = null, null, null
		f.childOwned = []*os.File{null}
		return f, nil
	}
	master, slave, err := openPty(p.cred())
	if err != nil {
		return f, err
	}
	if err := setWinsize(master, *p.req.Step.Pty); err != nil {
		p.log.WithError(err).Warn("set the terminal's size")
	}
	in, err := dupFile(master)
	if err != nil {
		master.Close()
		slave.Close()
		return f, err
	}
	f.in, f.out, f.err = slave, slave, slave
	f.childOwned = []*os.File{slave}
	f.outR, f.inW = master, in
	t.term = master
	t.in = newStdinFeed(in)
	return f, nil
}

// winsize applies srun's new terminal size to the task on the terminal.
func (p *proc) winsize(data []byte) {
	size, err := api.ParseWinsize(data)
	if err != nil {
		p.log.WithError(err).Debug("window size from srun")
		return
	}
	for _, t := range p.tasks {
		if t.term != nil {
			if err := setWinsize(t.term, size); err != nil {
				p.log.WithError(err).Debug("set the terminal's size")
			}
		}
	}
}
