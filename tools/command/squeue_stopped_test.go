package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSqueueStopped: a running job scancel -s STOP stopped lists as the
// peer listed it: ST and STOPPED, without -t and with -t ST, not with
// -t R.
func TestSqueueStopped(t *testing.T) {
	stopped := api.Job{JobID: 10613, Name: "wrap", UserName: "root", Partition: "normal", BatchFlag: true,
		JobState: job.Running, Stopped: true, StateReason: job.ReasonNone, NodeCount: 1, CPUs: 1,
		TimeLimit: 3600, SubmitTime: 1795990000, StartTime: 1795990000, Nodes: "cpu001"}
	cases := map[string]struct{ args, stdout string }{
		"no -t lists":   {"-h -o %i_%t_%T_%r", "10613_ST_STOPPED_None\n"},
		"-t ST":         {"-h -t ST -o %i_%t", "10613_ST\n"},
		"-t stopped":    {"-h -t running,stopped -o %i_%t", "10613_ST\n"},
		"-t R":          {"-h -t R -o %i_%t", ""},
		"-O state":      {"-h -O state,statecompact", "STOPPED             ST                  \n"},
		"elapsed shown": {"-h -o %M", "1:40\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(&fakeController{now: 1795990100, jobs: []api.Job{stopped}}, 1795990100)
			if code := Squeue(context.Background(), te.Env, strings.Fields(tc.args)); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.stdout, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
		})
	}
}
