package slurmconf

import (
	"errors"
	"fmt"
)

// Pos is where something was written: a file (as named in the fs.FS) and a
// 1-based line number. A continued line reports the line it starts on.
type Pos struct {
	File string
	Line int
}

func (p Pos) String() string {
	switch {
	case p.File == "":
		return "(built-in)"
	case p.Line == 0:
		return p.File
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// Error is one problem found while parsing or validating a file. It names the
// file, the line, the record ("PartitionName=batch") when there is one, and
// the key the problem is about.
type Error struct {
	Pos    Pos
	Record string // "NodeName=gpu[01-04]", empty for cluster keys
	Key    string // the key as written, or the canonical name
	Err    error
}

func (e *Error) Error() string {
	s := e.Pos.String() + ": "
	if e.Record != "" {
		s += e.Record + ": "
	}
	if e.Key != "" {
		s += e.Key + ": "
	}
	return s + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Warning is a problem that does not stop the file from loading: a Slurm key
// Loam does not use, a value Loam treats differently from Slurm, a key given
// twice. It prints like an Error.
type Warning struct {
	Pos    Pos
	Record string
	Key    string
	Msg    string
}

func (w Warning) String() string {
	return (&Error{Pos: w.Pos, Record: w.Record, Key: w.Key, Err: errors.New(w.Msg)}).Error()
}

// Sentinel causes, for callers and tests that check with errors.Is.
var (
	// ErrUnknownKey is a key neither Loam nor Slurm defines for that place.
	ErrUnknownKey = errors.New("unknown key")
	// ErrBadValue is a value that does not parse for its key.
	ErrBadValue = errors.New("invalid value")
	// ErrInclude is an Include that cannot be followed.
	ErrInclude = errors.New("include failed")
	// ErrSyntax is a line that is not a list of Key=Value pairs.
	ErrSyntax = errors.New("syntax error")
	// ErrInvalid is a problem Validate finds across records.
	ErrInvalid = errors.New("invalid configuration")
)

// diag collects errors and warnings in the order they are found.
// Identical messages are kept once: a bad value on a DEFAULT line is
// reported once however many lines inherit it.
type diag struct {
	errs     []error
	warnings []Warning
	seen     map[string]bool
	// order numbers every line read, in reading order, for sorting.
	order map[Pos]int
	// expanded counts the host names expanded so far.
	expanded int
}

func (d *diag) lineOrder() map[Pos]int {
	if d.order == nil {
		d.order = map[Pos]int{}
	}
	return d.order
}

func (d *diag) once(s string) bool {
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	if d.seen[s] {
		return false
	}
	d.seen[s] = true
	return true
}

func (d *diag) errorf(pos Pos, record, key string, cause error, format string, args ...any) {
	d.add(pos, record, key, fmt.Errorf("%w: %s", cause, fmt.Sprintf(format, args...)))
}

func (d *diag) add(pos Pos, record, key string, err error) {
	e := &Error{Pos: pos, Record: record, Key: key, Err: err}
	if d.once("E" + e.Error()) {
		d.errs = append(d.errs, e)
	}
}

func (d *diag) warnf(pos Pos, record, key string, format string, args ...any) {
	w := Warning{Pos: pos, Record: record, Key: key, Msg: fmt.Sprintf(format, args...)}
	if d.once("W" + w.String()) {
		d.warnings = append(d.warnings, w)
	}
}

func (d *diag) err() error { return errors.Join(d.errs...) }
