package step

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/loamhpc/loam/noded/fname"
	"github.com/loamhpc/loam/noded/shim"
	"github.com/loamhpc/loam/pkg/api"
)

// frameWriter sends frames to srun, one at a time.
type frameWriter struct {
	mu   sync.Mutex
	conn net.Conn
	buf  []byte
	err  error
}

func newFrameWriter(c net.Conn) *frameWriter { return &frameWriter{conn: c} }

// send writes one frame (several when data exceeds a frame's payload).
// After a write error every send fails fast: srun is gone.
func (w *frameWriter) send(kind api.StepIOKind, task uint32, data []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	for first := true; first || len(data) > 0; first = false {
		n := min(len(data), api.MaxIOPayload)
		w.buf = api.AppendIOFrame(w.buf[:0], kind, task, data[:n])
		data = data[n:]
		if _, err := w.conn.Write(w.buf); err != nil {
			w.err = fmt.Errorf("write to srun: %w", err)
			return w.err
		}
	}
	return nil
}

func (w *frameWriter) sendJSON(kind api.StepIOKind, task uint32, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return w.send(kind, task, data)
}

// taskFiles are one task's standard streams.
type taskFiles struct {
	// in, out and err are the child's; childOwned those to close once it
	// has them (pipe ends, /dev/null), not the shared output files.
	in, out, err *os.File
	childOwned   []*os.File
	// outR and errR are read ends whose data goes to srun; inW the write
	// end of the task's input pipe.
	outR, errR *os.File
	inW        *os.File
	// labels copy the task's output to its files with srun -l's labels.
	labels []labelCopy
}

func (f *taskFiles) closeChild() {
	for _, c := range f.childOwned {
		c.Close()
	}
	f.childOwned = nil
}

func (f *taskFiles) closeParent() {
	for _, c := range []*os.File{f.outR, f.errR, f.inW} {
		if c != nil {
			c.Close()
		}
	}
	for _, l := range f.labels {
		l.r.Close()
	}
}

// stdio opens a task's streams: pipes to and from srun, or the files
// --input, --output and --error name (patterns expanded for the task).
func (p *proc) stdio(t *task) (taskFiles, error) {
	if p.req.Step.Pty != nil {
		return p.ptyStdio(t)
	}
	var f taskFiles
	err := p.stdinOf(t, &f)
	if err == nil {
		err = p.outputsOf(t, &f)
	}
	if err != nil {
		f.closeChild()
		f.closeParent()
		return taskFiles{}, err
	}
	if f.inW != nil {
		t.in = newStdinFeed(f.inW)
	}
	return f, nil
}

func (p *proc) stdinOf(t *task, f *taskFiles) error {
	s := &p.req.Step
	pipeIn := func() error {
		r, w, err := os.Pipe()
		if err != nil {
			return err
		}
		f.in, f.inW = r, w
		f.childOwned = append(f.childOwned, r)
		return nil
	}
	devNull := func() error {
		n, err := os.Open(os.DevNull)
		f.in = n
		f.childOwned = append(f.childOwned, n)
		return err
	}
	switch in := s.StdIn; {
	case in == "":
		return pipeIn()
	case strings.EqualFold(in, "none"):
		return devNull()
	case isTaskID(in):
		if n, _ := strconv.Atoi(in); n == t.global {
			return pipeIn()
		}
		return devNull()
	default:
		path := fname.Path(in, s.WorkDir, p.patternVars(t))
		file, err := p.files.input(path)
		if err != nil {
			return ioError("stdin", path, err)
		}
		f.in = file
		f.childOwned = append(f.childOwned, file)
		return nil
	}
}

func (p *proc) outputsOf(t *task, f *taskFiles) error {
	s := &p.req.Step
	var outW, errW *os.File
	// toSrun is the write end of the pipe whose data goes to srun as
	// stream k, made once.
	toSrun := func(k api.StepIOKind) (*os.File, error) {
		r, w := &f.outR, &outW
		if k == api.IOStderr {
			r, w = &f.errR, &errW
		}
		if *w == nil {
			pr, pw, err := os.Pipe()
			if err != nil {
				return nil, err
			}
			*r, *w = pr, pw
			f.childOwned = append(f.childOwned, pw)
		}
		return *w, nil
	}
	if k, ok := srunStream(s.StdOut, api.IOStdout); ok {
		w, err := toSrun(k)
		if err != nil {
			return err
		}
		f.out = w
	} else {
		file, err := p.output(t, s.StdOut, "stdout")
		if err == nil {
			file, err = p.labelFile(f, file)
		}
		if err != nil {
			return err
		}
		f.out = file
	}
	errPattern := s.StdErr
	if errPattern == "" {
		errPattern = s.StdOut // -o without -e: both go there
	}
	if k, ok := srunStream(errPattern, api.IOStderr); ok {
		w, err := toSrun(k)
		if err != nil {
			return err
		}
		f.err = w
		return nil
	}
	if s.StdErr == "" {
		f.err, t.errFile = f.out, f.out
		if len(f.labels) > 0 {
			t.errFile = f.labels[0].file
		}
		return nil
	}
	file, err := p.output(t, s.StdErr, "stderr")
	if err != nil {
		return err
	}
	t.errFile = file
	f.err, err = p.labelFile(f, file)
	return err
}

// srunStream reports which of srun's streams a task's -o or -e pattern
// sends its data to: none given is the stream's own (byDefault), and a
// name for the task's own standard output or error is that stream, since
// slurmstepd opens -o and -e in the task after its stdio goes to srun (on
// the peer, srun -o /dev/stderr prints the tasks' output on srun's
// standard error). Any other pattern is a file.
func srunStream(pattern string, byDefault api.StepIOKind) (api.StepIOKind, bool) {
	switch pattern {
	case "":
		return byDefault, true
	case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		return api.IOStdout, true
	case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2":
		return api.IOStderr, true
	}
	return 0, false
}

// output opens a task's output file. The first node truncates a file all
// nodes share; a name that differs per node or task is truncated where
// it is opened.
func (p *proc) output(t *task, pattern, stream string) (*os.File, error) {
	path := fname.Path(pattern, p.req.Step.WorkDir, p.patternVars(t))
	perNode := strings.Contains(pattern, "%t") || strings.Contains(pattern, "%n") || strings.Contains(pattern, "%N")
	f, err := p.files.output(path, perNode || p.req.NodeIndex == 0)
	if err != nil {
		return nil, ioError(stream, path, err)
	}
	return f, nil
}

func isTaskID(s string) bool {
	_, err := strconv.ParseUint(s, 10, 31)
	return err == nil
}

// ioError is a file slurmstepd could not open, worded as it logs it
// ("Could not open stdout file /x/y: No such file or directory").
func ioError(stream, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return shim.OpenError{Stream: stream, Path: path, Err: err}
}

// pump forwards the task's output pipes to srun; outDone closes when both
// reached their end.
func (p *proc) pump(t *task, f taskFiles) {
	for _, s := range []struct {
		r    *os.File
		kind api.StepIOKind
	}{{f.outR, api.IOStdout}, {f.errR, api.IOStderr}} {
		if s.r == nil {
			continue
		}
		t.pumps.Add(1)
		go func() {
			defer t.pumps.Done()
			defer s.r.Close()
			buf := make([]byte, 32<<10)
			for {
				n, err := s.r.Read(buf)
				if n > 0 {
					_ = p.out.send(s.kind, uint32(t.global), buf[:n])
				}
				if err != nil {
					return
				}
			}
		}()
	}
	for _, l := range f.labels {
		t.pumps.Add(1)
		go func() {
			defer t.pumps.Done()
			defer l.r.Close()
			_ = copyLabelled(l.file, l.r, t.global, p.labelWidth())
		}()
	}
	go func() { t.pumps.Wait(); close(t.outDone) }()
}

// stdinFeed writes what srun sends to a task's input pipe, in order,
// without holding up the reader of srun's frames on a task that does not
// read (up to the queue's length).
type stdinFeed struct {
	mu     sync.Mutex
	ch     chan []byte
	closed bool
}

func newStdinFeed(w *os.File) *stdinFeed {
	s := &stdinFeed{ch: make(chan []byte, 64)}
	go func() {
		broken := false
		for data := range s.ch {
			if !broken {
				_, err := w.Write(data)
				broken = err != nil // the task stopped reading: drop the rest
			}
		}
		w.Close()
	}()
	return s
}

func (s *stdinFeed) feed(data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.ch <- data
	}
}

func (s *stdinFeed) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.ch)
	}
}

// stdin hands srun's input to task (or to every task).
func (p *proc) stdin(task uint32, data []byte) {
	for _, t := range p.tasks {
		if t.in != nil && (task == api.AllTasks || uint32(t.global) == task) {
			t.in.feed(data)
		}
	}
}

// closeStdin ends the input of task (or of every task).
func (p *proc) closeStdin(task uint32) {
	for _, t := range p.tasks {
		if t.in != nil && (task == api.AllTasks || uint32(t.global) == task) {
			t.in.close()
		}
	}
}
