package jobopt

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestS16HSrunDefinedInsideJob: inside an allocation the peer's srun -v
// block shows SLURM_JOB_NODELIST as "(null)" (its option has no long name,
// and it sits after --acctg-freq) and SLURM_JOB_NAME as job-name, while
// the step keeps its command's name. Expected text is the peer's.
func TestS16HSrunDefinedInsideJob(t *testing.T) {
	inJob := []string{"SLURM_JOB_ID=21784", "SLURM_JOB_NODELIST=cpu[001-002]", "SLURM_JOB_NAME=interactive"}
	tests := map[string]struct {
		args []string
		env  []string
		want []string
	}{
		"salloc -N2 -n3, srun -v -l": {
			args: []string{"-v", "-l", "hostname"},
			env:  append(inJob, "SLURM_NNODES=2", "SLURM_NTASKS=3", "SLURM_JOB_NUM_NODES=2"),
			want: []string{
				"srun: (null)              : cpu[001-002]",
				"srun: jobid               : 21784",
				"srun: job-name            : interactive",
				"srun: label               : set",
				"srun: nodes               : 2",
				"srun: ntasks              : 3",
				"srun: verbose             : 1",
			},
		},
		"after --acctg-freq, before --bcast": {
			args: []string{"-v", "--acctg-freq=30", "--accel-bind=g", "--bcast", "-n1", "true"},
			env:  []string{"SLURM_JOB_ID=21801", "SLURM_JOB_NODELIST=cpu001", "SLURM_JOB_NAME=myname"},
			want: []string{
				"srun: accel-bind          : g",
				"srun: acctg-freq          : 30",
				"srun: (null)              : cpu001",
				"srun: bcast               : set",
				"srun: jobid               : 21801",
				"srun: job-name            : myname",
				"srun: ntasks              : 1",
				"srun: verbose             : 1",
			},
		},
		"empty SLURM_JOB_NAME": {
			args: []string{"-v", "-n1", "true"},
			env:  []string{"SLURM_JOB_ID=21801", "SLURM_JOB_NODELIST=cpu001", "SLURM_JOB_NAME="},
			want: []string{
				"srun: (null)              : cpu001",
				"srun: jobid               : 21801",
				"srun: job-name            : ",
				"srun: ntasks              : 1",
				"srun: verbose             : 1",
			},
		},
		"outside a job": {
			args: []string{"-v", "-n2", "true"},
			want: []string{"srun: ntasks              : 2", "srun: verbose             : 1"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Prog: "srun", Cwd: "/work", Now: testNow, Env: tc.env}
			res, err := p.Srun(tc.args)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			lines := DefinedLines("srun", res.Defined)
			got := lines[2 : len(lines)-2]
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("-v block (-want +got):\n%s", diff)
			}
			if res.Step.Name != "" || res.Step.NameGiven {
				t.Errorf("step name %q given %v, want the command's", res.Step.Name, res.Step.NameGiven)
			}
		})
	}
}

// TestS16HSrunJobNameOption: -J inside a job still names the step.
func TestS16HSrunJobNameOption(t *testing.T) {
	p := &Parser{Prog: "srun", Cwd: "/work", Now: testNow, Env: []string{"SLURM_JOB_ID=5", "SLURM_JOB_NAME=wrap"}}
	res, err := p.Srun([]string{"-v", "-J", "mine", "true"})
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	if res.Step.Name != "mine" {
		t.Errorf("step name %q, want mine", res.Step.Name)
	}
	if got := strings.Join(DefinedLines("srun", res.Defined), "\n"); !strings.Contains(got, "job-name            : mine") {
		t.Errorf("-v block lacks job-name mine:\n%s", got)
	}
}
