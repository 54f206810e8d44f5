package jobopt

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSpecOptionsIgnored: -S/--core-spec and --thread-spec are accepted
// and ignored with the peer's line (AllowSpecResourcesUsage = No), once
// per option, whatever the source: the peer's sbatch -S 1, --core-spec=2,
// SBATCH_CORE_SPEC=1 and --thread-spec=1 all submitted with exit 0.
func TestSpecOptionsIgnored(t *testing.T) {
	const coreLine = "sbatch: error: Ignoring -S since it's not allowed by configuration (AllowSpecResourcesUsage = No)"
	const threadLine = "sbatch: error: Ignoring --thread-spec since it's not allowed by configuration (AllowSpecResourcesUsage = No)"
	tests := map[string]struct {
		env    []string
		script string
		args   []string
		want   []string
	}{
		"-S 1":                    {args: []string{"-S", "1"}, want: []string{coreLine}},
		"--core-spec=2 says -S":   {args: []string{"--core-spec=2"}, want: []string{coreLine}},
		"SBATCH_CORE_SPEC":        {env: []string{"SBATCH_CORE_SPEC=1"}, want: []string{coreLine}},
		"#SBATCH -S and -S: once": {script: "#SBATCH -S 1\n", args: []string{"-S", "2"}, want: []string{coreLine}},
		"--thread-spec=1":         {args: []string{"--thread-spec=1"}, want: []string{threadLine}},
		"neither: no line":        {},
		"both: one line for each": {args: []string{"-S", "1", "--thread-spec=1"}, want: []string{coreLine, threadLine}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res, err := submit(t, append([]string{"HOME=/home/u"}, tc.env...), "#!/bin/sh\n"+tc.script, append(tc.args, "job.sh")...)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, res.Warnings); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSrunSpecOptionsIgnored: srun prints the same line as the peer's
// srun -S 1 and srun --thread-spec=1.
func TestSrunSpecOptionsIgnored(t *testing.T) {
	p := &Parser{Env: insideJob, Cwd: "/work"}
	got, err := p.Srun([]string{"-S", "1", "--thread-spec=1", "true"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"srun: error: Ignoring -S since it's not allowed by configuration (AllowSpecResourcesUsage = No)",
		"srun: error: Ignoring --thread-spec since it's not allowed by configuration (AllowSpecResourcesUsage = No)",
	}
	if diff := cmp.Diff(want, got.Warnings); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
