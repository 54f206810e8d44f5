package jobopt

import "testing"

// TestContiguous: --contiguous, on the command line or in the script,
// sets the request's flag for sbatch, srun and salloc, with no warning
// (the peer shows Contiguous=1 for such jobs).
func TestContiguous(t *testing.T) {
	for name, tc := range map[string]struct {
		args   []string
		script string
		want   bool
	}{
		"absent":       {want: false},
		"command line": {args: []string{"--contiguous"}, want: true},
		"script":       {script: "#SBATCH --contiguous\n", want: true},
	} {
		t.Run("sbatch "+name, func(t *testing.T) {
			res, err := submit(t, []string{"HOME=/home/u"}, "#!/bin/sh\n"+tc.script, append(tc.args, "job.sh")...)
			if err != nil {
				t.Fatal(err)
			}
			if res.Request.Contiguous != tc.want {
				t.Errorf("Contiguous = %v, want %v", res.Request.Contiguous, tc.want)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings %q", res.Warnings)
			}
		})
	}
	p := &Parser{Env: []string{"HOME=/home/u"}, Cwd: "/work"}
	srun, err := p.Srun([]string{"-N2", "--contiguous", "true"})
	if err != nil {
		t.Fatal(err)
	}
	if !srun.Request.Contiguous || len(srun.Warnings) > 0 {
		t.Errorf("srun: Contiguous = %v, warnings %q", srun.Request.Contiguous, srun.Warnings)
	}
	salloc, err := p.Salloc([]string{"-N2", "--contiguous"})
	if err != nil {
		t.Fatal(err)
	}
	if !salloc.Request.Contiguous || len(salloc.Warnings) > 0 {
		t.Errorf("salloc: Contiguous = %v, warnings %q", salloc.Request.Contiguous, salloc.Warnings)
	}
}
