package batchscript

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExtract(t *testing.T) {
	tests := map[string]struct {
		script       string
		wantArgs     []string
		wantWarnings []string
		wantHetJob   bool
	}{
		"several options on one line": {
			script:   "#!/bin/bash\n#SBATCH -N 2 -n 16 --time=1:00:00\n",
			wantArgs: []string{"-N", "2", "-n", "16", "--time=1:00:00"},
		},
		"trailing comments": {
			script:   "#!/bin/bash\n#SBATCH --time=00:05:00   # five minutes\n#SBATCH -J train # name\n",
			wantArgs: []string{"--time=00:05:00", "-J", "train"},
		},
		"a hash without a space starts a comment": {
			script:   "#!/bin/sh\n#SBATCH --comment=abc#def\n",
			wantArgs: []string{"--comment=abc"},
		},
		"a quoted hash is kept": {
			script:   "#!/bin/sh\n#SBATCH --comment=\"abc#def\" -J 'x y'\n",
			wantArgs: []string{"--comment=abc#def", "-J", "x y"},
		},
		"quotes inside an argument": {
			script:   "#!/bin/sh\n#SBATCH --comment=a\"b c\"d\n",
			wantArgs: []string{"--comment=ab cd"},
		},
		"backslash escapes": {
			script:   "#!/bin/sh\n#SBATCH --comment=a\\\"b --comment=\"a b\\\" c\"\n",
			wantArgs: []string{"--comment=a\"b", "--comment=a b\" c"},
		},
		"disabled directives": {
			script:   "#!/bin/sh\n##SBATCH -N 4\n# SBATCH -N 5\n#sbatch -N 6\n  #SBATCH -N 7\n#SBATCH -N 1\n",
			wantArgs: []string{"-N", "1"},
		},
		"blank lines and comments before directives": {
			script:   "#!/bin/sh\n\n# setup\n   \n\t# indented comment\n#SBATCH -N 3\n",
			wantArgs: []string{"-N", "3"},
		},
		"directives after the first command are ignored": {
			script:   "#!/bin/sh\n#SBATCH -N 2\nmodule load cuda\n#SBATCH -N 8\n",
			wantArgs: []string{"-N", "2"},
		},
		"directives in a heredoc are ignored": {
			script:   "#!/bin/sh\n#SBATCH -J outer\ncat > inner.sh <<EOF\n#!/bin/sh\n#SBATCH -J inner\nEOF\n",
			wantArgs: []string{"-J", "outer"},
		},
		"variables stay unexpanded": {
			script:   "#!/bin/sh\n#SBATCH -J ${NAME}_x --output=${HOME}/logs/%j.out\n",
			wantArgs: []string{"-J", "${NAME}_x", "--output=${HOME}/logs/%j.out"},
		},
		"tabs and no space after the magic word": {
			script:   "#!/bin/sh\n#SBATCH\t-N\t3\n#SBATCH-n4\n",
			wantArgs: []string{"-N", "3", "-n4"},
		},
		"an empty quoted string drops the rest of its line": {
			script:   "#!/bin/sh\n#SBATCH --comment \"\" -N 5\n#SBATCH -J x\n",
			wantArgs: []string{"--comment", "-J", "x"},
		},
		"the old #SLURM word warns once": {
			script:       "#!/bin/sh\n#SLURM -J a\n#SLURM -N 2\n",
			wantArgs:     []string{"-J", "a", "-N", "2"},
			wantWarnings: []string{"Change from #SLURM to #SBATCH in your script and verify the options are valid in sbatch"},
		},
		"a hetjob separator ends the first component": {
			script:     "#!/bin/sh\n#SBATCH -N 1\n#SBATCH hetjob\n#SBATCH -N 2\n",
			wantArgs:   []string{"-N", "1"},
			wantHetJob: true,
		},
		"a separator word inside a line ends that line": {
			script:   "#!/bin/sh\n#SBATCH -N 1 packjob -n 3\n#SBATCH -J x\n",
			wantArgs: []string{"-N", "1", "-J", "x"},
		},
		"the shebang line itself is a comment": {
			script:   "#!/bin/sh\n#SBATCH -p debug",
			wantArgs: []string{"-p", "debug"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := Extract("job.sh", []byte(tc.script))
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			want := &Directives{Args: tc.wantArgs, Warnings: tc.wantWarnings, HetJob: tc.wantHetJob}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestExtractErrors(t *testing.T) {
	tests := map[string]struct {
		script string
		want   string
	}{
		"an unmatched double quote": {"#!/bin/sh\n#SBATCH --comment=\"abc\n",
			"unq.sh: line 2: Unmatched `\"` in [--comment=\"abc]"},
		"an unmatched quote after other arguments keeps the spaces": {"#!/bin/sh\n#SBATCH -J x  --comment='abc\n",
			"unq.sh: line 2: Unmatched `'` in [  --comment='abc]"},
		"a colon where an argument starts": {"#!/bin/sh\n\n#SBATCH :\n",
			"unq.sh: line 3: Unexpected `:` in [:]"},
	}
	for name, tc := range tests {
		_, err := Extract("unq.sh", []byte(tc.script))
		var e *Error
		if !errors.As(err, &e) || !e.Fatal {
			t.Errorf("%s: Extract = %v, want a fatal *Error", name, err)
			continue
		}
		if diff := cmp.Diff([]string{tc.want}, e.Lines); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", name, diff)
		}
	}
}

func TestCheck(t *testing.T) {
	tests := map[string]struct {
		script string
		want   []string
	}{
		"a good script": {"#!/bin/sh\ntrue\n", nil},
		"an empty file": {"", []string{"Batch script is empty!"}},
		"white space":   {"  \n\t\n", []string{"Batch script contains only whitespace!"}},
		"no shebang": {"echo hi\n", []string{"This does not look like a batch script.  The first",
			"line must start with #! followed by the path to an interpreter.", "For instance: #!/bin/sh"}},
		"a NUL byte": {"#!/bin/sh\necho \x00hi\n", []string{"The Slurm controller does not allow scripts that",
			`contain a NULL character '\0'.`}},
		"DOS line breaks": {"#!/bin/sh\r\necho hi\r\n", []string{`Batch script contains DOS line breaks (\r\n)`,
			`instead of expected UNIX line breaks (\n).`}},
		"white space up to a NUL": {"  \x00x", []string{"Batch script contains only whitespace!"}},
	}
	for name, tc := range tests {
		err := Check([]byte(tc.script))
		var got []string
		if e := (*Error)(nil); errors.As(err, &e) {
			got = e.Lines
		} else if err != nil {
			t.Errorf("%s: Check = %v, want an *Error", name, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", name, diff)
		}
	}
}

func TestWrap(t *testing.T) {
	want := "#!/bin/sh\n# This script was created by sbatch --wrap.\n\nhostname; sleep 1\n"
	if got := Wrap("hostname; sleep 1"); got != want {
		t.Errorf("Wrap = %q, want %q", got, want)
	}
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"#!/bin/sh\n#SBATCH -N 2 -n 16 # c\n", "#!/bin/sh\n#SBATCH --comment=\"a#b\" 'c d' e\\ f\n",
		"#!/bin/sh\n#SBATCH :\n", "#!/bin/sh\n#SBATCH \"\n", "#SLURM hetjob\n#SBATCH packjob x\n",
		"#!/bin/sh\n##SBATCH -N 4\nrun\n#SBATCH -N 5\n", "#SBATCH \\",
		// Bad input: NUL bytes, DOS line ends, bytes that are not UTF-8,
		// an unclosed single quote, a directive after the first command.
		"#!/bin/sh\n#SBATCH -J a\x00b\n", "#!/bin/sh\r\n#SBATCH -N 1\r\n", "#!/bin/sh\n#SBATCH -J \xff\xfe\n",
		"#!/bin/sh\n#SBATCH --comment='unclosed\n", "#!/bin/sh\ntrue\n#SBATCH --bogus\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		d, err := Extract("fuzz.sh", []byte(script))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || len(e.Lines) == 0 {
				t.Fatalf("Extract(%q) = %v, want an *Error with lines", script, err)
			}
			return
		}
		for _, a := range d.Args {
			if a == "" {
				t.Fatalf("Extract(%q) yields an empty argument: %q", script, d.Args)
			}
		}
		_ = Check([]byte(script))
	})
}
