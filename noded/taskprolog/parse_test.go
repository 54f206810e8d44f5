package taskprolog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestApply: the lines the peer (Slurm 22.05.8) was given, and what its
// task saw: TP_VAR="hello world", TP_SP=x, TP_GONE unset, "printed by
// prolog" in the output, the rest ignored.
func TestApply(t *testing.T) {
	base := []string{"PATH=/bin", "TP_GONE=1"}
	tests := map[string]struct {
		out       string
		wantEnv   []string
		wantPrint string
	}{
		"the peer's prolog": {
			out:       "export TP_VAR=hello world\nunset TP_GONE\nprint printed by prolog\njunk line\nexport  TP_SP=x\nexport TP_NOEQ\n",
			wantEnv:   []string{"PATH=/bin", "TP_VAR=hello world", "TP_SP=x"},
			wantPrint: "printed by prolog\n",
		},
		"no output changes nothing": {out: "", wantEnv: base},
		"export replaces an existing variable": {
			out: "export PATH=/opt/bin:/bin", wantEnv: []string{"TP_GONE=1", "PATH=/opt/bin:/bin"},
		},
		"an empty value is set": {out: "export EMPTY=\n", wantEnv: append(append([]string{}, base...), "EMPTY=")},
		"the value keeps = and quotes": {
			out: `export OPTS=a=b "c"`, wantEnv: append(append([]string{}, base...), `OPTS=a=b "c"`),
		},
		"a later line wins": {
			out: "export A=1\nexport A=2\n", wantEnv: append(append([]string{}, base...), "A=2"),
		},
		"unset after export removes it": {out: "export A=1\nunset A\n", wantEnv: base},
		"unset of an absent variable":   {out: "unset NOPE\n", wantEnv: base},
		"print keeps spaces and an empty line": {
			out: "print  two spaces\nprint \n", wantEnv: base, wantPrint: " two spaces\n\n",
		},
		"keywords are case-sensitive":      {out: "EXPORT A=1\nPrint x\nUNSET TP_GONE\n", wantEnv: base},
		"a keyword without its space":      {out: "exportA=1\nprint\nunset\n", wantEnv: base},
		"leading spaces are not a keyword": {out: " export A=1\n", wantEnv: base},
		"an empty name is ignored":         {out: "export =x\n", wantEnv: base},
		"a name with a space is ignored":   {out: "export A B=x\n", wantEnv: base},
		"CRLF line ends":                   {out: "export A=1\r\nprint hi\r\n", wantEnv: append(append([]string{}, base...), "A=1"), wantPrint: "hi\n"},
		"a NUL byte drops the line":        {out: "export A=1\x002\n", wantEnv: base},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := Apply(base, []byte(tc.out))
			if diff := cmp.Diff(tc.wantEnv, got.Env); diff != "" {
				t.Errorf("env (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantPrint, string(got.Print)); diff != "" {
				t.Errorf("print (-want +got):\n%s", diff)
			}
		})
	}
}

func TestApplyLeavesItsInputAlone(t *testing.T) {
	env := []string{"A=1", "B=2"}
	Apply(env, []byte("unset A\nexport B=3\n"))
	if diff := cmp.Diff([]string{"A=1", "B=2"}, env); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// FuzzApply: any output gives an environment of NAME=value entries, each
// name once, without NUL bytes, and never panics.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"export A=1\nunset B\nprint x\n", "export =\n", "print \x00\n", "export A B=1\r\n", "unset  \n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, out string) {
		r := Apply([]string{"B=2"}, []byte(out))
		seen := map[string]bool{}
		for _, kv := range r.Env {
			name, _, ok := strings.Cut(kv, "=")
			if !ok || name == "" || strings.ContainsAny(kv, "\x00\n") || seen[name] {
				t.Fatalf("bad environment entry %q in %q", kv, r.Env)
			}
			seen[name] = true
		}
		if len(r.Print) > 0 && r.Print[len(r.Print)-1] != '\n' {
			t.Fatalf("print %q does not end its line", r.Print)
		}
	})
}
