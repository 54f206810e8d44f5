package command

import (
	"io"
	"slices"
	"strconv"
)

// taskWriter writes the tasks' output to one of srun's streams: by whole
// lines per task (a partial line waits for its end, or the task's), each
// line prefixed "N: " with -l (N padded to the width of the highest task
// id), or as it comes with -u (with -l too, every line of a chunk
// labelled and a chunk's partial line ended, as srun -u -l writes them).
type taskWriter struct {
	w          io.Writer
	label      bool
	unbuffered bool
	width      int
	partial    map[uint32][]byte
	buf        []byte
}

func newTaskWriter(w io.Writer, label, unbuffered bool, width int) *taskWriter {
	return &taskWriter{w: w, label: label, unbuffered: unbuffered, width: width, partial: map[uint32][]byte{}}
}

func (t *taskWriter) prefix(b []byte, task uint32) []byte {
	if !t.label {
		return b
	}
	id := strconv.FormatUint(uint64(task), 10)
	for i := len(id); i < t.width; i++ {
		b = append(b, ' ')
	}
	return append(append(b, id...), ':', ' ')
}

// write takes a chunk of task's output.
func (t *taskWriter) write(task uint32, data []byte) {
	b := t.buf[:0]
	if t.unbuffered && !t.label {
		t.emit(append(b, data...))
		return
	}
	if t.unbuffered {
		for len(data) > 0 {
			line := data
			if i := slices.Index(data, '\n'); i >= 0 {
				line = data[:i]
			}
			b = append(append(t.prefix(b, task), line...), '\n')
			data = data[min(len(line)+1, len(data)):]
		}
		t.emit(b)
		return
	}
	rest := append(t.partial[task], data...)
	for {
		i := slices.Index(rest, '\n')
		if i < 0 {
			break
		}
		b = append(t.prefix(b, task), rest[:i+1]...)
		rest = rest[i+1:]
	}
	if len(rest) == 0 {
		delete(t.partial, task)
	} else {
		t.partial[task] = slices.Clone(rest)
	}
	t.emit(b)
}

// flushTask writes what is left of task's last line, ended with a
// newline as srun ends it.
func (t *taskWriter) flushTask(task uint32) {
	rest, ok := t.partial[task]
	if !ok {
		return
	}
	delete(t.partial, task)
	b := append(t.prefix(t.buf[:0], task), rest...)
	if t.label {
		b = append(b, '\n')
	}
	t.emit(b)
}

// flushAll flushes every task's partial line, in task order.
func (t *taskWriter) flushAll() {
	tasks := make([]uint32, 0, len(t.partial))
	for k := range t.partial {
		tasks = append(tasks, k)
	}
	slices.Sort(tasks)
	for _, k := range tasks {
		t.flushTask(k)
	}
}

func (t *taskWriter) emit(b []byte) {
	if len(b) > 0 {
		_, _ = t.w.Write(b)
	}
	t.buf = b[:0]
}
