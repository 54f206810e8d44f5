package command

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSrunLocal: the -i, -o and -e names Slurm's srun opens itself (the
// others go to the nodes as they are).
func TestSrunLocal(t *testing.T) {
	for pattern, want := range map[string]bool{
		"":            false,
		"all":         false,
		"none":        false,
		"0":           false,
		"out.txt":     true,
		"out-%j.txt":  true,
		"out-%5j.txt": true,
		"100%%.txt":   true,
		"out-%t.txt":  false,
		"out-%N.txt":  false,
		"out-%n.txt":  false,
		"out-%s.txt":  false,
		`out\%t.txt`:  false,
	} {
		if got := srunLocal(pattern, 0); got != want {
			t.Errorf("srunLocal(%q) = %v, want %v", pattern, got, want)
		}
	}
}

// TestSrunStdioFiles: a missing input file or output directory stops
// srun before the step, in the peer's words (srun -i /nonexistdir/x cat;
// srun -o /nonexistdir/x true), exit status 1.
func TestSrunStdioFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.txt"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		args []string
		want string
	}{
		"missing input file":       {args: []string{"-i", "nofile", "cat"}, want: "srun: error: Could not open stdin file: No such file or directory\n"},
		"missing output directory": {args: []string{"-o", "/nonexistdir/x", "true"}, want: "srun: error: Could not open stdout file: No such file or directory\n"},
		"missing error directory":  {args: []string{"-e", "no/x-%j", "true"}, want: "srun: error: Could not open stderr file: No such file or directory\n"},
		"output under a file":      {args: []string{"-o", "in.txt/x", "true"}, want: "srun: error: Could not open stdout file: Not a directory\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, _ := runSrunCase(t, srunCase{env: insideJobEnv, args: tc.args, layout: twoNodes,
				onEnv: func(env *Env) { env.Cwd = dir }, wantCode: 1, wantStderr: tc.want})
			if len(f.created) != 0 {
				t.Errorf("steps created: %+v", f.created)
			}
		})
	}
}
