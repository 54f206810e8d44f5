package slurmconf

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestNodePrologKeys(t *testing.T) {
	tests := map[string]struct {
		lines string
		want  NodeProlog
	}{
		"unset: nothing runs, no timeout": {"", NodeProlog{}},
		"every key": {
			"Prolog=/etc/slurm/prolog.d/*\nEpilog=/etc/slurm/epilog\nPrologFlags=serial,Alloc\nPrologEpilogTimeout=30\n",
			NodeProlog{Prolog: "/etc/slurm/prolog.d/*", Epilog: "/etc/slurm/epilog",
				Flags: PrologAlloc | PrologSerial, Timeout: 30 * time.Second},
		},
		"Contain implies Alloc":       {"PrologFlags=Contain\n", NodeProlog{Flags: PrologAlloc | PrologContain}},
		"X11 implies Alloc":           {"PrologFlags=x11\n", NodeProlog{Flags: PrologAlloc | PrologX11}},
		"65534 is Slurm's no timeout": {"PrologEpilogTimeout=65534\n", NodeProlog{}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := parseOK(t, tc.lines)
			if diff := cmp.Diff(tc.want, c.NodeProlog); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestNodePrologRefusals(t *testing.T) {
	for name, tc := range map[string]struct{ line, want string }{
		"an unknown flag": {"PrologFlags=Alloc,Eager",
			`slurm.conf:3: PrologFlags: invalid value: "Eager" is not a PrologFlags word`},
		"a relative prolog": {"Prolog=prolog.sh",
			`slurm.conf:3: Prolog: invalid value: "prolog.sh" is not an absolute path`},
		"a relative epilog": {"Epilog=bin/epilog",
			`slurm.conf:3: Epilog: invalid value: "bin/epilog" is not an absolute path`},
		"a timeout too large": {"PrologEpilogTimeout=70000",
			`slurm.conf:3: PrologEpilogTimeout: invalid value`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header + tc.line + "\n")}}, "slurm.conf")
			checkErrorPrefixes(t, err, []string{tc.want})
		})
	}
}

func TestPrologFlagsString(t *testing.T) {
	for in, want := range map[string]string{
		"":                      "(null)",
		"contain":               "Alloc,Contain",
		"Serial,NoHold,Alloc":   "Alloc,NoHold,Serial",
		"ForceRequeueOnFail":    "ForceRequeueOnFail",
		"DeferBatch,x11,Serial": "Alloc,DeferBatch,Serial,X11",
	} {
		f, bad, ok := ParsePrologFlags(in)
		if !ok {
			t.Fatalf("ParsePrologFlags(%q): %q refused", in, bad)
		}
		if got := f.String(); got != want {
			t.Errorf("ParsePrologFlags(%q).String() = %q, want %q", in, got, want)
		}
	}
}
