package taskprolog

import (
	"bytes"
	"strings"
)

// Result is what a prolog's output asks of the task.
type Result struct {
	// Env is the task's environment with the prolog's exports and unsets
	// applied, in order.
	Env []string
	// Print is what the "print" lines write to the task's standard
	// output, one line each.
	Print []byte
}

// Apply reads out, a prolog's standard output, against env (which it
// does not change). A line is one of:
//
//	export NAME=value   value is the rest of the line, spaces included
//	unset NAME
//	print text
//
// Spaces after the keyword are skipped; a name holding a space or "="
// (or empty), a line holding a NUL byte, and any other line are ignored.
func Apply(env []string, out []byte) Result {
	r := Result{Env: append([]string(nil), env...)}
	for _, line := range bytes.Split(out, []byte("\n")) {
		s := strings.TrimSuffix(string(line), "\r")
		if strings.IndexByte(s, 0) >= 0 {
			continue
		}
		switch {
		case strings.HasPrefix(s, "print "):
			r.Print = append(append(r.Print, s[len("print "):]...), '\n')
		case strings.HasPrefix(s, "export "):
			name, value, ok := strings.Cut(strings.TrimLeft(s[len("export "):], " \t"), "=")
			if ok && validName(name) {
				r.Env = append(unset(r.Env, name), name+"="+value)
			}
		case strings.HasPrefix(s, "unset "):
			name := strings.TrimSpace(s[len("unset "):])
			if validName(name) {
				r.Env = unset(r.Env, name)
			}
		}
	}
	return r
}

// validName refuses what cannot be an environment variable's name.
func validName(name string) bool {
	return name != "" && !strings.ContainsAny(name, "= \t")
}

// unset is env without name's entries.
func unset(env []string, name string) []string {
	out := env[:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
