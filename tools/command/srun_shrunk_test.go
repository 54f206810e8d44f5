package command

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSrunInShrunkJob follows the peer: inside a job that scontrol update
// NumNodes=1 shrank, srun with SLURM_JOB_NUM_NODES=2 still set says the
// variable conflicts with the allocation and runs on the node left; -N2
// given on the command line is not corrected.
func TestSrunInShrunkJob(t *testing.T) {
	one := api.StepLayout{NodeList: "n01", Tasks: 1, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0}}}}
	shrunk := api.Allocation{JobID: 12, State: job.Running, Ready: true, NodeList: "n01",
		Nodes: []api.NodeAllocation{{Node: "n01", CPUs: 1}}}
	for name, tc := range map[string]struct {
		args      []string
		wantErr   string
		wantNodes []int
	}{
		"nodes from the environment": {[]string{"hostname"},
			"srun: error: SLURM_JOB_NUM_NODES environment variable conflicts with allocated node count (2 != 1).\n", []int{2, 1}},
		"-N on the command line": {[]string{"-N2", "hostname"},
			"srun: error: Unable to create step for job 12: Requested node configuration is not available\n", []int{2}},
	} {
		t.Run(name, func(t *testing.T) {
			f := &fakeSteps{fakeController: &fakeController{}, t: t, layout: one, waits: []api.Allocation{shrunk},
				script: []func(n *fakeNode){func(n *fakeNode) {
					n.out(0, "n01\n")
					n.exit(api.StepIOExit{Tasks: []int{0}})
					n.done()
				}}}
			d := &refusingSteps{fakeSteps: f, refuse: 1, code: api.CodeNodeConfigUnavailable}
			te := newTestEnv(f.fakeController, 1_800_000_000)
			te.Environ = append(te.Environ, insideJobEnv...)
			te.Dial = func(context.Context) (Controller, error) { return d, nil }
			h := stepHooks{notify: func(chan<- os.Signal) func() { return func() {} },
				ioHost: func() string { return "127.0.0.1" }, stdinIsNull: func() bool { return true }}
			runSrun(context.Background(), te.Env, tc.args, h)
			f.wg.Wait()
			if diff := cmp.Diff(tc.wantErr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			var nodes []int
			for _, c := range f.created {
				nodes = append(nodes, c.Nodes)
			}
			if diff := cmp.Diff(tc.wantNodes, nodes); diff != "" {
				t.Errorf("step node counts asked (-want +got):\n%s", diff)
			}
		})
	}
}
