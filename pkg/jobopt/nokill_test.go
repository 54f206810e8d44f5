package jobopt

import (
	"strings"
	"testing"
)

// TestNoKill: -k and its words as the peer's sbatch, salloc and srun take
// them, from the command line and from their input variables; no "Loam
// ignores" warning any more.
func TestNoKill(t *testing.T) {
	tests := map[string]struct {
		prog    string
		args    []string
		env     []string
		want    bool
		wantErr string
	}{
		"sbatch -k":                   {prog: "sbatch", args: []string{"-k"}, want: true},
		"sbatch --no-kill=SET":        {prog: "sbatch", args: []string{"--no-kill=SET"}, want: true},
		"sbatch -k --no-kill=off":     {prog: "sbatch", args: []string{"-k", "--no-kill=off"}},
		"sbatch --no-kill=no":         {prog: "sbatch", args: []string{"--no-kill=no"}},
		"sbatch without -k":           {prog: "sbatch"},
		"SBATCH_NO_KILL empty":        {prog: "sbatch", env: []string{"SBATCH_NO_KILL="}, want: true},
		"SBATCH_NO_KILL=off":          {prog: "sbatch", env: []string{"SBATCH_NO_KILL=off"}},
		"SBATCH_NO_KILL=1 is refused": {prog: "sbatch", env: []string{"SBATCH_NO_KILL=1"}, wantErr: "sbatch: error: Invalid --no-kill specification"},
		"sbatch --no-kill=bad":        {prog: "sbatch", args: []string{"--no-kill=bad"}, wantErr: "sbatch: error: Invalid --no-kill specification"},
		"salloc -k":                   {prog: "salloc", args: []string{"-k"}, want: true},
		"SALLOC_NO_KILL=set":          {prog: "salloc", env: []string{"SALLOC_NO_KILL=set"}, want: true},
		"salloc --no-kill=x":          {prog: "salloc", args: []string{"--no-kill=x"}, wantErr: "salloc: error: Invalid --no-kill specification"},
		"srun -k":                     {prog: "srun", args: []string{"-k"}, want: true},
		"SLURM_NO_KILL empty":         {prog: "srun", env: []string{"SLURM_NO_KILL="}, want: true},
		"srun --no-kill=x":            {prog: "srun", args: []string{"--no-kill=x"}, wantErr: "srun: error: Invalid --no-kill specification"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Prog: tc.prog, Env: append([]string{"HOME=/home/u"}, tc.env...), Cwd: "/home/u", Now: testNow, Host: "login1"}
			var got bool
			var warnings []string
			var err error
			switch tc.prog {
			case "sbatch":
				cl, cerr := p.CommandLine(append(tc.args, "job.sh"))
				if cerr != nil {
					err = cerr
					break
				}
				res, serr := p.Submission(cl, []byte("#!/bin/sh\n"))
				if err = serr; err == nil {
					got, warnings = res.Request.NoKill, res.Warnings
				}
			case "salloc":
				res, serr := p.Salloc(tc.args)
				if err = serr; err == nil {
					got, warnings = res.Request.NoKill, res.Warnings
				}
			case "srun":
				res, serr := p.Srun(append(tc.args, "true"))
				if err = serr; err == nil {
					got, warnings = res.Request.NoKill, res.Warnings
				}
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(tc.wantErr, tc.prog+": error: ")) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("NoKill = %v, want %v", got, tc.want)
			}
			for _, w := range warnings {
				if strings.Contains(w, "ignores") {
					t.Errorf("warning %q: -k is no longer ignored", w)
				}
			}
		})
	}
}
