package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestBatchFeaturesLine: scontrol show job prints --batch's features on
// the line after NodeList=, with the batch host once the job runs, as the
// peer does ("BatchFeatures=gpu" pending, "BatchFeatures=cpu
// BatchHost=gpu001" running, "BatchFeatures=" for --batch=).
func TestBatchFeaturesLine(t *testing.T) {
	str := func(s string) *string { return &s }
	cases := map[string]struct {
		job  api.Job
		want []string
	}{
		"pending": {job: api.Job{JobState: job.Pending, BatchFeatures: str("gpu")},
			want: []string{"   NodeList=", "   BatchFeatures=gpu"}},
		"running": {job: api.Job{JobState: job.Running, Nodes: "gpu[001-002]", BatchHost: "gpu001", BatchFeatures: str("cpu")},
			want: []string{"   NodeList=gpu[001-002]", "   BatchFeatures=cpu BatchHost=gpu001"}},
		"--batch= running": {job: api.Job{JobState: job.Running, Nodes: "cpu001,gpu001", BatchHost: "cpu001", BatchFeatures: str("")},
			want: []string{"   NodeList=cpu001,gpu001", "   BatchFeatures= BatchHost=cpu001"}},
		"--batch= pending": {job: api.Job{JobState: job.Pending, BatchFeatures: str("")},
			want: []string{"   NodeList=", "   BatchFeatures="}},
		"without, running": {job: api.Job{JobState: job.Running, Nodes: "cpu001", BatchHost: "cpu001"},
			want: []string{"   NodeList=cpu001", "   BatchHost=cpu001"}},
	}
	got, want := map[string][]string{}, map[string][]string{}
	for name, tc := range cases {
		lines := strings.Split(string((&jobFormatter{}).appendJob(nil, &tc.job)), "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "   NodeList=") && i+1 < len(lines) {
				got[name] = lines[i : i+2]
			}
		}
		want[name] = tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scontrol show job (-want +got):\n%s", diff)
	}
}

// TestScontrolUpdateBatchFeatures: Slurm 22.05's scontrol cannot change
// --batch; the peer answers scontrol update JobId=N BatchFeatures=cpu so
// and exits 1.
func TestScontrolUpdateBatchFeatures(t *testing.T) {
	checkJobUpdate(t, []string{"BatchFeatures=cpu"}, nil,
		"Update of this parameter is not supported: BatchFeatures=cpu\nRequest aborted\n", 1)
}
