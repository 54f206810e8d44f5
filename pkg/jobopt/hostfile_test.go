package jobopt

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNodeFile: --nodefile and a -w naming a file read the file as
// Slurm's slurm_read_hostfile, with the peer's lines for bad files.
func TestNodeFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lines", "cpu001\ncpu002 cpu003,cpu004\n")
	write("repeat", "#c\n\ncpu005*2,cpu006 # trailing\n")
	write("blank-first", " cpu001\n")
	write("comments", "#only\n")
	tests := map[string]struct {
		args      []string
		nodeList  string
		code      int
		wantLines []string
	}{
		"lines, blanks and commas": {args: []string{"--nodefile=lines"}, nodeList: "cpu[001-004]"},
		"a name repeated":          {args: []string{"-F", "repeat"}, nodeList: "cpu[005-006]"},
		"-w with a slash":          {args: []string{"-w", "./repeat"}, nodeList: "cpu[005-006]"},
		"a line not starting with a name": {args: []string{"--nodefile=blank-first"}, code: ExitClient,
			wantLines: []string{"sbatch: error: Invalid hostfile blank-first contents on line 1", "sbatch: error: Invalid --nodefile node file"}},
		"only comments": {args: []string{"--nodefile=comments"}, code: ExitClient,
			wantLines: []string{"sbatch: error: Hostlist is empty!", "sbatch: error: Invalid --nodefile node file"}},
		"no such file": {args: []string{"--nodefile=/nonexistent"}, code: ExitClient,
			wantLines: []string{"sbatch: error: slurm_allocate_resources error opening file /nonexistent, No such file or directory", "sbatch: error: Invalid --nodefile node file"}},
		"-w of no such file": {args: []string{"-w", "/nonexistent"}, code: 1,
			wantLines: []string{"sbatch: error: slurm_allocate_resources error opening file /nonexistent, No such file or directory"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Cwd: dir, Now: testNow}
			cl, err := p.CommandLine(tc.args)
			if err == nil {
				var res *Result
				res, err = p.Submission(cl, []byte("#!/bin/sh\ntrue\n"))
				if err == nil && tc.wantLines == nil {
					if res.Request.NodeList != tc.nodeList {
						t.Errorf("node list %q, want %q", res.Request.NodeList, tc.nodeList)
					}
					return
				}
			}
			code, lines := errorOf(t, err)
			if diff := cmp.Diff([]any{tc.code, tc.wantLines}, []any{code, lines}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
