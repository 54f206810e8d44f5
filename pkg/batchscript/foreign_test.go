package batchscript

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// commands returns n lines of line, for the scanning limit.
func commands(n int, line string) string { return strings.Repeat(line+"\n", n) }

func TestForeign(t *testing.T) {
	tests := map[string]struct {
		magic, script string
		wantArgs      []string
		wantFound     bool
	}{
		"lines join into one argument vector": {
			magic: MagicPBS, script: "#!/bin/sh\n#PBS -N\n#PBS name -l walltime=1:00\n",
			wantArgs: []string{"-N", "name", "-l", "walltime=1:00"}, wantFound: true,
		},
		"quotes, comments and a glued option as in #SBATCH lines": {
			magic: MagicPBS, script: "#!/bin/sh\n#PBS -N \"a b\" # the name\n#PBS-q batch\n",
			wantArgs: []string{"-N", "a b", "-q", "batch"}, wantFound: true,
		},
		"a hetjob word ends the line": {
			magic: MagicPBS, script: "#PBS -N a hetjob -q b\n#PBS -A x\n",
			wantArgs: []string{"-N", "a", "-A", "x"}, wantFound: true,
		},
		"lines after commands still count": {
			magic: MagicBSUB, script: "#!/bin/sh\necho hi\n#BSUB -J late\n",
			wantArgs: []string{"-J", "late"}, wantFound: true,
		},
		"an empty directive line is found": {
			magic: MagicBSUB, script: "#!/bin/sh\n#BSUB\n", wantFound: true,
		},
		"only column one and this case": {
			magic: MagicPBS, script: "#!/bin/sh\n #PBS -N a\n#pbs -N b\n## PBS -N c\n",
		},
		"the other magic word is not read": {
			magic: MagicBSUB, script: "#!/bin/sh\n#PBS -N a\n",
		},
		"a line after 100 commands is read": {
			magic: MagicPBS, script: "#!/bin/sh\n" + commands(100, "true") + "#PBS -N n\n",
			wantArgs: []string{"-N", "n"}, wantFound: true,
		},
		"reading stops after the 101st command": {
			magic: MagicPBS, script: "#!/bin/sh\n" + commands(101, "true") + "#PBS -N n\n",
		},
		"blank and indented lines are commands": {
			magic: MagicPBS, script: "#!/bin/sh\n" + commands(50, "") + commands(51, "  # c") + "#PBS -N n\n",
		},
		"comment lines are not": {
			magic: MagicPBS, script: "#!/bin/sh\n" + commands(300, "#c") + "#PBS -N n\n",
			wantArgs: []string{"-N", "n"}, wantFound: true,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			args, found, err := Foreign("job.sh", tc.magic, []byte(tc.script))
			if err != nil {
				t.Fatalf("Foreign: %v", err)
			}
			if diff := cmp.Diff(tc.wantArgs, args); diff != "" || found != tc.wantFound {
				t.Errorf("found %v, want %v; args (-want +got):\n%s", found, tc.wantFound, diff)
			}
		})
	}
}

// TestForeignErrors: the peer's fatal lines for "#PBS -N x :".
func TestForeignErrors(t *testing.T) {
	_, _, err := Foreign("x.sh", MagicPBS, []byte("#!/bin/sh\n#PBS -N x :\ntrue\n"))
	var e *Error
	if !errors.As(err, &e) || !e.Fatal {
		t.Fatalf("Foreign = %v, want a fatal *Error", err)
	}
	if diff := cmp.Diff([]string{"x.sh: line 2: Unexpected `:` in [ :]"}, e.Lines); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func FuzzForeign(f *testing.F) {
	for _, s := range []string{
		"#!/bin/sh\n#PBS -N a -l nodes=2:ppn=4\n", "#BSUB -m \"a b\" -cwd /tmp\n", "#PBS :\n", "#PBS '\n",
		"#!/bin/sh\ntrue\n#PBS -N\x00x\n", "#PBS hetjob\r\n#BSUB\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		for _, magic := range []string{MagicBSUB, MagicPBS} {
			args, found, err := Foreign("fuzz.sh", magic, []byte(script))
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || len(e.Lines) == 0 {
					t.Fatalf("Foreign(%q) = %v, want an *Error with lines", script, err)
				}
				continue
			}
			if len(args) > 0 && !found {
				t.Fatalf("Foreign(%q) has arguments %q but found no line", script, args)
			}
			for _, a := range args {
				if a == "" {
					t.Fatalf("Foreign(%q) yields an empty argument: %q", script, args)
				}
			}
		}
	})
}
