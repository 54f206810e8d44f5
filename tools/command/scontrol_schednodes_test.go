package command

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestScontrolShowJobSchedNodes: a pending job planned on nodes shows them
// after NodeList=, as the peer's backfill-planned -N8 job shows
// "NodeList= SchedNodeList=cpu[001-008]"; a running job shows its nodes
// only.
func TestScontrolShowJobSchedNodes(t *testing.T) {
	for _, tc := range []struct {
		j    api.Job
		want string
	}{
		{api.Job{JobID: 7, Name: "wrap", JobState: job.Pending, StateReason: job.ReasonResources, SchedNodes: "cpu[001-008]"},
			"   NodeList= SchedNodeList=cpu[001-008]\n"},
		{api.Job{JobID: 8, Name: "wrap", JobState: job.Pending, StateReason: job.ReasonJobHeldUser}, "   NodeList=\n"},
		{api.Job{JobID: 9, Name: "wrap", JobState: job.Running, Nodes: "cpu001", SchedNodes: "cpu001"}, "   NodeList=cpu001\n"},
	} {
		te := newTestEnv(&fakeController{now: 1796008400, jobs: []api.Job{tc.j}}, 1796008400)
		Scontrol(context.Background(), te.Env, []string{"show", "job", strconv.Itoa(int(tc.j.JobID))})
		if !strings.Contains(te.stdout.String(), tc.want) {
			t.Errorf("job %d: scontrol show job lacks %q:\n%s", tc.j.JobID, tc.want, te.stdout.String())
		}
	}
}
