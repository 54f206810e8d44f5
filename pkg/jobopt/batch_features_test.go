package jobopt

import "testing"

// TestBatchFeatures: sbatch keeps --batch as given, without a warning,
// from the command line, #SBATCH lines and SBATCH_BATCH, and keeps an
// empty one: the peer shows --batch= -C gpu as "BatchFeatures=" and
// refuses --batch= and SBATCH_BATCH= without -C, so sbatch sent them.
func TestBatchFeatures(t *testing.T) {
	for name, tc := range map[string]struct {
		env    []string
		script string
		args   []string
		want   *string
	}{
		"argv":                {args: []string{"--batch=gpu", "-C", "gpu"}, want: batchPtr("gpu")},
		"argv empty":          {args: []string{"--batch="}, want: batchPtr("")},
		"as given":            {args: []string{"--batch=gpu|nosuch"}, want: batchPtr("gpu|nosuch")},
		"script":              {script: "#SBATCH --batch=cpu\n", want: batchPtr("cpu")},
		"env":                 {env: []string{"SBATCH_BATCH=cpu"}, want: batchPtr("cpu")},
		"env empty":           {env: []string{"SBATCH_BATCH="}, want: batchPtr("")},
		"argv over env":       {env: []string{"SBATCH_BATCH=cpu"}, args: []string{"--batch=gpu"}, want: batchPtr("gpu")},
		"not given":           {},
		"commas kept as is":   {args: []string{"--batch=gpu,cpu"}, want: batchPtr("gpu,cpu")},
		"script under argv":   {script: "#SBATCH --batch=cpu\n", args: []string{"--batch=gpu"}, want: batchPtr("gpu")},
		"env under script":    {env: []string{"SBATCH_BATCH=gpu"}, script: "#SBATCH --batch=cpu\n", want: batchPtr("gpu")},
		"brackets kept as is": {args: []string{"--batch=[gpu]"}, want: batchPtr("[gpu]")},
	} {
		t.Run(name, func(t *testing.T) {
			res, err := submit(t, tc.env, "#!/bin/sh\n"+tc.script, append(tc.args, "job.sh")...)
			if err != nil {
				t.Fatal(err)
			}
			got := res.Request.BatchFeatures
			if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
				t.Errorf("BatchFeatures %v, want %v", showBatch(got), showBatch(tc.want))
			}
			if len(res.Warnings) != 0 {
				t.Errorf("warnings %q", res.Warnings)
			}
		})
	}
}

func showBatch(s *string) string {
	if s == nil {
		return "nil"
	}
	return "&" + *s
}

func batchPtr(s string) *string { return &s }
