package schedtest

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Directive is one command of a scenario file:
//
//	# comments and blank lines between directives are kept
//	cmd key=value key=value
//	optional input lines
//	----
//	expected output (no blank lines)
//
// The expected output ends at the first blank line or at the end of file.
type Directive struct {
	Pos      string // file:line of the command
	Cmd      string
	Args     []string // the words after the command
	Input    []string
	Expected string
	lead     string // comments and blank lines before the command
}

// Arg returns the value of key=value among the arguments, and whether it
// was there; a bare word "key" gives "" and true.
func (d *Directive) Arg(key string) (string, bool) {
	for _, a := range d.Args {
		k, v, _ := strings.Cut(a, "=")
		if k == key {
			return v, true
		}
	}
	return "", false
}

// ParseScenario splits a scenario file into directives.
func ParseScenario(name, text string) ([]*Directive, string, error) {
	lines := strings.Split(text, "\n")
	var out []*Directive
	var lead strings.Builder
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			lead.WriteString(line + "\n")
			continue
		}
		words := strings.Fields(line)
		d := &Directive{Pos: fmt.Sprintf("%s:%d", name, i+1), Cmd: words[0], Args: words[1:], lead: lead.String()}
		lead.Reset()
		i++
		for ; i < len(lines) && lines[i] != "----"; i++ {
			d.Input = append(d.Input, lines[i])
		}
		if i >= len(lines) {
			return nil, "", fmt.Errorf("%s: directive %q has no ---- line", d.Pos, d.Cmd)
		}
		var exp []string
		for i++; i < len(lines) && lines[i] != ""; i++ {
			exp = append(exp, lines[i])
		}
		d.Expected = strings.Join(exp, "\n")
		out = append(out, d)
		if i < len(lines) {
			lead.WriteString("\n")
		}
	}
	return out, lead.String(), nil
}

// RunScenario runs every directive of the file at path through run and
// compares its output with the expected one. With rewrite set it writes
// the outputs back into the file instead.
func RunScenario(t *testing.T, path string, rewrite bool, run func(d *Directive) string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read scenario: %v", err)
	}
	ds, tail, err := ParseScenario(path, string(data))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, d := range ds {
		got := strings.TrimRight(run(d), "\n")
		got = strings.ReplaceAll(got, "\n\n", "\n.\n")
		if !rewrite && got != d.Expected {
			t.Errorf("%s: %s %s: output differs\n--- want\n%s\n--- got\n%s", d.Pos, d.Cmd,
				strings.Join(d.Args, " "), d.Expected, got)
		}
		b.WriteString(d.lead)
		b.WriteString(strings.Join(append([]string{d.Cmd}, d.Args...), " ") + "\n")
		for _, in := range d.Input {
			b.WriteString(in + "\n")
		}
		b.WriteString("----\n")
		if got != "" {
			b.WriteString(got + "\n")
		}
	}
	b.WriteString(strings.TrimPrefix(tail, "\n"))
	if rewrite {
		out := strings.TrimRight(b.String(), "\n") + "\n"
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatalf("rewrite scenario: %v", err)
		}
	}
}
