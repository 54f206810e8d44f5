package supervisor

import (
	"encoding/json"
	"io"
	"maps"
	"sync"
	"time"
)

// Logger writes the supervisor's log as JSON lines, one object per entry
// with its fields, "level", "msg" and "time" (RFC 3339), keys sorted: the
// lines logrus's JSON formatter writes, without linking logrus into a
// process started for every job.
type Logger struct {
	out    *logOutput
	fields map[string]any
}

type logOutput struct {
	mu sync.Mutex
	w  io.Writer
}

// NewLogger returns a logger writing to w.
func NewLogger(w io.Writer) *Logger {
	return &Logger{out: &logOutput{w: w}}
}

// WithField returns a logger that adds key to every entry; an error value
// is written as its message.
func (l *Logger) WithField(key string, v any) *Logger {
	if err, ok := v.(error); ok {
		v = err.Error()
	}
	f := make(map[string]any, len(l.fields)+1)
	maps.Copy(f, l.fields)
	f[key] = v
	return &Logger{out: l.out, fields: f}
}

// WithError adds err as the "error" field.
func (l *Logger) WithError(err error) *Logger { return l.WithField("error", err) }

// Info, Warn and Error write one entry at their level.
func (l *Logger) Info(msg string)  { l.write("info", msg) }
func (l *Logger) Warn(msg string)  { l.write("warning", msg) }
func (l *Logger) Error(msg string) { l.write("error", msg) }

func (l *Logger) write(level, msg string) {
	e := make(map[string]any, len(l.fields)+3)
	maps.Copy(e, l.fields)
	e["level"], e["msg"], e["time"] = level, msg, time.Now().Format(time.RFC3339)
	line, err := json.Marshal(e)
	if err != nil {
		// A field that does not encode must not cost the entry.
		line, _ = json.Marshal(map[string]string{"level": level, "msg": msg, "log_error": err.Error()})
	}
	line = append(line, '\n')
	l.out.mu.Lock()
	defer l.out.mu.Unlock()
	_, _ = l.out.w.Write(line)
}
