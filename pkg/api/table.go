package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
)

// JobTable is the compact answer of PathJobTable: one row per job, one
// string per requested field, in Fields order. Values are printed as the
// field's Job type would be, as text: integers in decimal, Unix seconds for
// times, "1"/"0" for booleans, "status:signal" for exit_code, "" for an
// absent array_task_id.
type JobTable struct {
	Now    int64    `json:"now"`
	Fields []string `json:"fields"`
	// Rows are the values as sent. DecodeJobTable leaves them empty when
	// it decodes the rows straight into Job records (see Jobs): a table of
	// 100,000 jobs is then built once, not twice.
	Rows [][]string `json:"rows"`
	// Missing, as in JobsResponse.
	Missing []string `json:"missing,omitempty"`

	// jobs holds the rows already decoded (DecodeJobTable's fast path).
	jobs []Job
}

// Jobs returns the rows as Job records with only the table's fields set.
// Records decoded by DecodeJobTable's fast path are returned as they are,
// the same slice on every call.
func (t *JobTable) Jobs() ([]Job, error) {
	if t.jobs != nil {
		return t.jobs, nil
	}
	idx := make([]int, len(t.Fields))
	for i, f := range t.Fields {
		k, ok := jobFieldIndex[f]
		if !ok {
			return nil, fmt.Errorf("job table: unknown field %q", f)
		}
		idx[i] = k
	}
	out := make([]Job, len(t.Rows))
	for r, row := range t.Rows {
		if len(row) != len(idx) {
			return nil, fmt.Errorf("job table row %d: %d values for %d fields", r, len(row), len(idx))
		}
		for i, v := range row {
			f := &jobFieldList[idx[i]]
			if err := f.set(&out[r], v); err != nil {
				return nil, fmt.Errorf("job table row %d field %s: bad value %q", r, f.name, v)
			}
		}
	}
	return out, nil
}

// TableWriter builds a JobTable's JSON directly, one job at a time, without
// reflection; the controller uses it so listing 100,000 jobs stays cheap.
type TableWriter struct {
	fields []int
	buf    []byte
	rows   int
	scrat  []byte
}

// NewTableWriter starts a table of the named fields at time now. It fails on
// an unknown or repeated field.
func NewTableWriter(fields []string, now int64) (*TableWriter, error) {
	if len(fields) == 0 {
		return nil, errors.New("no fields requested")
	}
	w := &TableWriter{buf: make([]byte, 0, 4096)}
	seen := make(map[string]bool, len(fields))
	w.buf = append(w.buf, `{"now":`...)
	w.buf = strconv.AppendInt(w.buf, now, 10)
	w.buf = append(w.buf, `,"fields":[`...)
	for i, f := range fields {
		k, ok := jobFieldIndex[f]
		if !ok {
			return nil, fmt.Errorf("unknown job field %q", f)
		}
		if seen[f] {
			return nil, fmt.Errorf("job field %q requested twice", f)
		}
		seen[f] = true
		w.fields = append(w.fields, k)
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.buf = appendJSONString(w.buf, f)
	}
	w.buf = append(w.buf, `],"rows":[`...)
	return w, nil
}

// Add appends j's row.
func (w *TableWriter) Add(j *Job) {
	if w.rows > 0 {
		w.buf = append(w.buf, ',')
	}
	w.rows++
	w.buf = append(w.buf, '[')
	for i, k := range w.fields {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		// The value is printed in place and escaped only when it needs
		// it (rarely): no copy, no conversion, no garbage per value.
		open := len(w.buf)
		w.buf = append(w.buf, '"')
		w.buf = jobFieldList[k].get(j, w.buf)
		if v := w.buf[open+1:]; needsEscape(v) {
			w.scrat = append(w.scrat[:0], v...)
			w.buf = appendJSONString(w.buf[:open], w.scrat)
			continue
		}
		w.buf = append(w.buf, '"')
	}
	w.buf = append(w.buf, ']')
}

// needsEscape reports whether v holds a byte appendJSONString changes.
func needsEscape(v []byte) bool {
	for _, c := range v {
		if c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// Grow makes room for rows more rows as long as the longest so far, so
// that a large table is written into one allocation: growing by doubling
// left the controller garbage several times the table's size for every
// listing.
func (w *TableWriter) Grow(rows int) {
	if rows <= 0 || w.rows == 0 {
		return
	}
	per := len(w.buf)/w.rows*5/4 + len(w.fields) // a margin for longer rows
	w.buf = slices.Grow(w.buf, rows*per)
}

// Finish closes the table with the references that matched nothing and
// returns its JSON.
func (w *TableWriter) Finish(missing []string) []byte {
	w.buf = append(w.buf, ']')
	if len(missing) > 0 {
		w.buf = append(w.buf, `,"missing":[`...)
		for i, m := range missing {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.buf = appendJSONString(w.buf, m)
		}
		w.buf = append(w.buf, ']')
	}
	return append(w.buf, '}', '\n')
}

// Rows returns how many rows were added.
func (w *TableWriter) Rows() int { return w.rows }

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string, escaping what JSON requires
// and replacing invalid UTF-8 as encoding/json does.
func appendJSONString[S ~string | ~[]byte](b []byte, s S) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\t':
				b = append(b, '\\', 't')
			case '\r':
				b = append(b, '\\', 'r')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// DecodeJobTable parses a JobTable. Tables written by TableWriter take a
// fast path, whose records' strings share data's memory: data must not be
// changed afterwards. Anything else goes through encoding/json.
func DecodeJobTable(data []byte) (*JobTable, error) {
	if t, ok := fastDecodeTable(data); ok {
		return t, nil
	}
	var t JobTable
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("decode job table: %w", err)
	}
	return &t, nil
}
