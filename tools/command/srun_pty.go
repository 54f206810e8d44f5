package command

import (
	"fmt"
	"os"
	"sync"
	"syscall"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/syserr"
)

// ptyTerminal is srun's own terminal under --pty; tests replace it.
type ptyTerminal interface {
	// size is the terminal's window size.
	size() (api.StepPty, error)
	// raw puts the terminal in raw mode: every byte typed goes to task 0
	// unchanged (Ctrl-C included: the task's terminal makes it a SIGINT).
	raw() error
	// restore puts back the settings raw found.
	restore()
	// watch delivers the window's size changes (SIGWINCH) to ch.
	watch(ch chan<- os.Signal)
}

// srunPty is srun's side of --pty: its terminal, raw while task 0 runs,
// and the lines srun holds back meanwhile (they would print without
// carriage returns).
type srunPty struct {
	term ptyTerminal
	win  api.StepPty

	mu    sync.Mutex
	isRaw bool
	held  []string
	w     *output
}

// newSrunPty prepares --pty when standard input is a terminal. Without
// one, srun says so as the peer's does and runs the step as without
// --pty.
func newSrunPty(w *output, h stepHooks) *srunPty {
	var term ptyTerminal
	err := error(syscall.ENOTTY)
	if h.terminal != nil {
		term, err = h.terminal()
	}
	var win api.StepPty
	if err == nil {
		win, err = term.size()
	}
	if err != nil {
		w.errf("ioctl(TIOCGWINSZ): %s", syserr.Strerror(err))
		w.errf("Not using a pseudo-terminal, disregarding --pty option")
		return nil
	}
	return &srunPty{term: term, win: win, w: w}
}

// start puts the terminal in raw mode for the step; the caller restores
// it on every way out.
func (p *srunPty) start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.term.raw(); err != nil {
		return fmt.Errorf("set the terminal to raw mode: %w", err)
	}
	p.isRaw = true
	return nil
}

// restore gives the terminal its settings back and prints the lines held
// while it was raw. It may be called more than once.
func (p *srunPty) restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.isRaw {
		return
	}
	p.isRaw = false
	p.term.restore()
	for _, l := range p.held {
		p.w.raw(l)
	}
	p.held = nil
}

// say writes one of srun's lines to standard error, or holds it until
// the terminal is restored.
func (p *srunPty) say(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.isRaw {
		p.held = append(p.held, line)
		return
	}
	p.w.raw(line)
}

// resized sends the terminal's new size to the node of task 0.
func (p *srunPty) resized(s *stepRun) {
	win, err := p.term.size()
	if err != nil {
		return
	}
	node, ok := s.nodeOf[0]
	if !ok || node >= len(s.conns) || s.conns[node] == nil {
		return
	}
	s.conns[node].send(api.IOWinsize, 0, win.AppendWinsize(nil))
}

// errLine is "srun: error: ..." on standard error, held while the
// terminal is raw.
func (s *stepRun) errLine(format string, args ...any) {
	line := s.w.prog + ": error: " + fmt.Sprintf(format, args...) + "\n"
	if s.r.pty != nil {
		s.r.pty.say(line)
		return
	}
	s.w.raw(line)
}
