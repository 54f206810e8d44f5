package command

import (
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
)

// stepHooks are what srun and salloc take from their process beyond Env;
// tests replace them.
type stepHooks struct {
	// notify delivers the signals srun forwards to ch until stop.
	notify func(ch chan<- os.Signal) (stop func())
	// ioHost is the address the nodes reach srun at.
	ioHost func() string
	// stdinIsNull reports that standard input is /dev/null (nothing to
	// forward to the tasks).
	stdinIsNull func() bool
	// runLocal runs salloc's command and returns how it ended.
	runLocal func(argv, env []string, dir string, sigs <-chan os.Signal) job.ExitCode
	// terminal is srun's standard input as a terminal (--pty); nil or an
	// error: it is not one.
	terminal func() (ptyTerminal, error)
	// afterFunc is time.After for srun --wait (nil: time.After).
	afterFunc func(d time.Duration) <-chan time.Time
	// abortAfterFunc is time.After for the wait after an abort (nil:
	// time.After).
	abortAfterFunc func(d time.Duration) <-chan time.Time
}

// after is a channel that fires after d.
func (h stepHooks) after(d time.Duration) <-chan time.Time {
	if h.afterFunc != nil {
		return h.afterFunc(d)
	}
	return time.After(d)
}

// abortAfter is a channel that fires d after a step was aborted.
func (h stepHooks) abortAfter(d time.Duration) <-chan time.Time {
	if h.abortAfterFunc != nil {
		return h.abortAfterFunc(d)
	}
	return time.After(d)
}

// Signals srun handles.
var (
	sigINT  os.Signal = syscall.SIGINT
	sigTERM os.Signal = syscall.SIGTERM
	sigHUP  os.Signal = syscall.SIGHUP
	sigQUIT os.Signal = syscall.SIGQUIT
	sigCONT os.Signal = syscall.SIGCONT
	// sigWINCH resizes the terminal of srun --pty's task.
	sigWINCH os.Signal = syscall.SIGWINCH
)

// forwarded are the signals srun passes on to the tasks (SIGINT has its
// own handling).
var forwarded = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGCONT, syscall.SIGALRM}

func osStepHooks() stepHooks {
	return stepHooks{
		// srun keeps catching the signals until it exits: one that comes
		// after the step ended must not kill it (a batch script forwarding
		// its checkpoint signal races with the step's end).
		notify: func(ch chan<- os.Signal) func() {
			signal.Notify(ch, forwarded...)
			return func() {}
		},
		ioHost:      localAddr,
		stdinIsNull: stdinIsNull,
		runLocal:    runLocal,
		terminal:    stdinTerminal,
	}
}

// localAddr is this host's address on the route to the controller, which
// the nodes can reach; loopback when the controller is on this host.
func localAddr() string {
	cfg, _ := client.LoadConfig()
	if cfg == nil {
		return "127.0.0.1"
	}
	o := client.OptionsFrom(cfg)
	if o.CtldAddr == "" {
		return "127.0.0.1"
	}
	c, err := net.Dial("udp", o.CtldAddr)
	if err != nil {
		return "127.0.0.1"
	}
	defer c.Close()
	host, _, err := net.SplitHostPort(c.LocalAddr().String())
	if err != nil {
		return "127.0.0.1"
	}
	return host
}

// stdinIsNull reports whether standard input is /dev/null.
func stdinIsNull() bool {
	a, err1 := os.Stdin.Stat()
	b, err2 := os.Stat(os.DevNull)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}
