package api

import "testing"

func TestExpandStdio(t *testing.T) {
	task := 4
	arr := StdioVars{JobID: 13, ArrayJobID: 12, ArrayTaskID: &task, User: "alice", JobName: "train", Host: "vm", Step: "batch"}
	plain := StdioVars{JobID: 17, User: "bob", JobName: "wrap", Host: "vm", Step: "batch"}
	tests := map[string]struct {
		pattern string
		vars    StdioVars
		want    string
	}{
		"default output":                {"slurm-%j.out", plain, "slurm-17.out"},
		"default array output":          {"slurm-%A_%a.out", arr, "slurm-12_4.out"},
		"array ids outside an array":    {"%A_%a", plain, "17_4294967294"},
		"zero padded job id":            {"%5j", plain, "00017"},
		"percent escape":                {"100%%-%u", plain, "100%-bob"},
		"host node task step name":      {"%N-%n-%t-%s-%x", plain, "vm-0-0-batch-wrap"},
		"batch job and step is the job": {"%J", plain, "17"},
		"job and a named step":          {"%J", StdioVars{JobID: 17, Step: "0"}, "17.0"},
		"unknown pattern kept":          {"a%qb", plain, "a%qb"},
		"trailing percent kept":         {"a%", plain, "a%"},
		"width on a name is ignored":    {"%10u", plain, "bob"},
		"no pattern at all":             {"/tmp/out.txt", plain, "/tmp/out.txt"},
		"trailing width without verb":   {"a%12", plain, "a12"},
		"width capped at ten digits":    {"%12j", plain, "0000000017"},
		"unknown letter after a width":  {"%3q-%4%", plain, "3q-4%"},
		"a backslash stops expansion":   {`\%j-\\`, plain, `%j-\`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := ExpandStdio(tc.pattern, tc.vars); got != tc.want {
				t.Errorf("ExpandStdio(%q) = %q, want %q", tc.pattern, got, tc.want)
			}
		})
	}
}
