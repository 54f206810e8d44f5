package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestS17SpreadJobLine: scontrol show job prints SpreadJob=Yes as the
// peer does for sbatch --spread-job: a line of its own after Power=, and
// run on after KillOInInvalidDependent=Yes, which Slurm 22.05 ends
// without a line break.
func TestS17SpreadJobLine(t *testing.T) {
	cases := map[string]struct {
		job  api.Job
		want []string
	}{
		"--spread-job": {
			job:  api.Job{JobState: job.Pending, SpreadJob: true},
			want: []string{"Power=", "SpreadJob=Yes"}},
		"with --kill-on-invalid-dep=yes": {
			job:  api.Job{JobState: job.Pending, SpreadJob: true, KillInvDep: true},
			want: []string{"Power=", "KillOInInvalidDependent=YesSpreadJob=Yes"}},
		"without": {
			job:  api.Job{JobState: job.Pending},
			want: []string{"WorkDir=", "Power="}},
	}
	got, want := map[string][]string{}, map[string][]string{}
	for name, tc := range cases {
		lines := strings.Split(string((&jobFormatter{}).fileLines(nil, &tc.job, "\n")), "\n")
		got[name], want[name] = lines[len(lines)-2:], tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scontrol show job (-want +got):\n%s", diff)
	}
}

// TestBorrowedLinesKeepOffSlurmsNodeKey: Loam's per-node GPU lines of
// show job -d are keyed GPUNode=, so a script collecting Slurm's
// per-node "Nodes= CPU_IDs=" lines does not count them.
func TestBorrowedLinesKeepOffSlurmsNodeKey(t *testing.T) {
	j := api.Job{GPUs: 6, Allocation: []api.NodeAllocation{
		{Node: "gpu01", GPUs: []int{3, 0, 1, 2}, Borrowed: []bool{false, false, true, true}},
		{Node: "gpu02", GPUs: []int{0, 1}},
	}}
	got := string((&jobFormatter{detail: true}).borrowedLines(nil, &j, "\n"))
	want := "\n  GPUNode=gpu01 GPU_IDs=0-3 Borrowed=1-2\n  GPUNode=gpu02 GPU_IDs=0-1 Borrowed=none"
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
