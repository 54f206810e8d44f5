package command

import (
	"errors"
	"fmt"
	"io"

	"github.com/loamhpc/loam/pkg/api"
)

// output collects a command's standard output in one buffer, written
// once (a command printing 100,000 lines makes one write), and writes
// standard error at once, as C's stdio does for a pipe and a terminal.
type output struct {
	env  *Env
	prog string
	buf  []byte
}

func newOutput(env *Env, prog string) *output {
	noteProg(env, prog)
	return &output{env: env, prog: prog, buf: make([]byte, 0, 64<<10)}
}

// printf appends to standard output.
func (o *output) printf(format string, args ...any) {
	o.buf = fmt.Appendf(o.buf, format, args...)
}

// write appends bytes to standard output.
func (o *output) write(b []byte) { o.buf = append(o.buf, b...) }

// raw writes s to standard error as is.
func (o *output) raw(s string) { io.WriteString(o.env.Stderr, s) }

// errf writes "prog: error: ..." to standard error.
func (o *output) errf(format string, args ...any) {
	o.raw(o.prog + ": error: " + fmt.Sprintf(format, args...) + "\n")
}

// lines writes each line to standard error.
func (o *output) lines(ls []string) {
	for _, l := range ls {
		o.raw(l + "\n")
	}
}

// flush writes what standard output holds.
func (o *output) flush() {
	if len(o.buf) > 0 {
		o.env.Stdout.Write(o.buf)
		o.buf = o.buf[:0]
	}
}

// exit flushes and returns code.
func (o *output) exit(code int) int {
	o.flush()
	return code
}

// errText is the text Slurm prints for a failed request: the controller's
// Slurm message, or the error itself.
func errText(err error) string {
	var ae *api.Error
	if errors.As(err, &ae) {
		return ae.Message
	}
	return err.Error()
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// errDetail is errText with the controller's detail, when it sent one.
func errDetail(err error) string {
	var ae *api.Error
	if errors.As(err, &ae) {
		if ae.Detail != "" {
			return ae.Message + ": " + ae.Detail
		}
		return ae.Message
	}
	return err.Error()
}
