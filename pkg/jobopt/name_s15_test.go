package jobopt

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestS15EmptyJobName: on the peer `sbatch -J "" job.sh`, --job-name= and
// `salloc -J ""` leave the job's name empty (JobName= in scontrol show
// job); without -J sbatch names the job after its script and salloc
// "interactive".
func TestS15EmptyJobName(t *testing.T) {
	type named struct {
		Name  string
		Empty bool
	}
	tests := map[string]struct {
		cmd  string
		args []string
		want named
	}{
		"sbatch -J empty":          {cmd: "sbatch", args: []string{"-J", "", "job.sh"}, want: named{"", true}},
		"sbatch --job-name= empty": {cmd: "sbatch", args: []string{"--job-name=", "job.sh"}, want: named{"", true}},
		"sbatch without -J":        {cmd: "sbatch", args: []string{"job.sh"}, want: named{"job.sh", false}},
		"sbatch -J name":           {cmd: "sbatch", args: []string{"-J", "x", "job.sh"}, want: named{"x", false}},
		"salloc -J empty":          {cmd: "salloc", args: []string{"-J", ""}, want: named{"", true}},
		"salloc without -J":        {cmd: "salloc", want: named{SallocDefaultName, false}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Prog: tc.cmd, Cwd: "/work", Now: testNow}
			var got named
			if tc.cmd == "salloc" {
				res, err := p.Salloc(tc.args)
				if err != nil {
					t.Fatal(err)
				}
				got = named{res.Request.Name, res.Request.EmptyName}
			} else {
				cl, err := p.CommandLine(tc.args)
				if err != nil {
					t.Fatal(err)
				}
				res, err := p.Submission(cl, []byte("#!/bin/sh\ntrue\n"))
				if err != nil {
					t.Fatal(err)
				}
				got = named{res.Request.Name, res.Request.EmptyName}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("name (-want +got):\n%s", diff)
			}
		})
	}
}
