package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSacctDerivedExitCodeLife: sacct's DerivedExitCode is the highest
// exit of the job's steps, the value scontrol show job -d prints
// ("DerivedExitCode=7:0" on the Slurm 22.05 peer); step lines leave it
// empty.
func TestSacctDerivedExitCodeLife(t *testing.T) {
	var col *acctCol
	for i := range acctCols {
		if acctCols[i].name == "DerivedExitCode" {
			col = &acctCols[i]
		}
	}
	if col == nil {
		t.Fatal("no DerivedExitCode field")
	}
	j := &api.AcctJob{JobID: 5, ExitCode: job.ExitCode{}, DerivedExitCode: job.ExitCode{Status: 7}}
	got := []string{col.val(acctRow{j: j}, nil), col.val(acctRow{j: j, step: &api.AcctStep{StepID: "0"}}, nil)}
	if diff := cmp.Diff([]string{"7:0", ""}, got); diff != "" {
		t.Errorf("job and step values (-want +got):\n%s", diff)
	}
}
