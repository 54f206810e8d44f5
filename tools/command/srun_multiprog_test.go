package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// twoNodeJobEnv is a two-node batch job without -n.
var twoNodeJobEnv = []string{"SLURM_JOB_ID=12", "SLURM_JOB_NUM_NODES=2", "SLURM_NNODES=2", "PATH=/usr/bin"}

// TestSrunMP runs srun --multi-prog against scripted nodes: what it sends
// for the step, and srun's messages for files it refuses (the peer's
// words; see pkg/api's multi-prog tests for the whole set).
func TestSrunMP(t *testing.T) {
	oneTask := api.StepLayout{NodeList: "n01", Tasks: 1, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0}}}}
	ok := func(n *fakeNode) { n.exit(api.StepIOExit{Tasks: []int{0}}); n.done() }
	const conf = "/home/alice/work/mp.conf"
	tests := map[string]struct {
		c          srunCase
		wantTasks  int
		wantNodes  int
		wantArgv   []string
		wantConfig string
	}{
		"-n from the job, srun's arguments kept": {
			c: srunCase{env: insideJobEnv, args: []string{"--multi-prog", "mp.conf", "x"}, layout: oneTask,
				script: []func(n *fakeNode){ok}, files: map[string]string{conf: "0-1 a %t\n2 b\n"}},
			wantTasks: 3, wantNodes: 2, wantArgv: []string{"mp.conf", "x"}, wantConfig: "0-1 a %t\n2 b\n",
		},
		"without -n the file sets the tasks": {
			c: srunCase{env: twoNodeJobEnv, args: []string{"--multi-prog", "mp.conf"}, layout: oneTask,
				script: []func(n *fakeNode){ok}, files: map[string]string{conf: "0-3 a\n"}},
			wantTasks: 4, wantNodes: 2, wantArgv: []string{"mp.conf"}, wantConfig: "0-3 a\n",
		},
		"an asterisk alone is one task, on one node": {
			c: srunCase{env: twoNodeJobEnv, args: []string{"--multi-prog", "mp.conf"}, layout: oneTask,
				script: []func(n *fakeNode){ok}, files: map[string]string{conf: "* a\n"},
				wantStderr: "srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1\n"},
			wantTasks: 1, wantNodes: 1, wantArgv: []string{"mp.conf"}, wantConfig: "* a\n",
		},
		"a file that is not there": {
			c: srunCase{env: insideJobEnv, args: []string{"--multi-prog", "nope.conf"}, wantCode: 1,
				wantStderr: "srun: error: Could not open multi_prog config file nope.conf\n"},
		},
		"a task left out": {
			c: srunCase{env: insideJobEnv, args: []string{"-n2", "--multi-prog", "mp.conf"}, wantCode: 1,
				files:      map[string]string{conf: "0 a\n"},
				wantStderr: "srun: error: Configuration file mp.conf invalid, no record for task id 1\n"},
		},
		"a task named twice": {
			c: srunCase{env: insideJobEnv, args: []string{"-n2", "--multi-prog", "mp.conf"}, wantCode: 1,
				files: map[string]string{conf: "0-1 a\n1 b\n"},
				wantStderr: "srun: error: Duplicate record for task 1\n" +
					"srun: error: Line 2 of configuration file mp.conf invalid\n"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, _ := runSrunCase(t, tc.c)
			if tc.c.wantCode != 0 {
				if len(f.created) != 0 {
					t.Errorf("a step was created: %+v", f.created)
				}
				return
			}
			if len(f.created) != 1 {
				t.Fatalf("%d steps created", len(f.created))
			}
			got := f.created[0]
			if got.NTasks != tc.wantTasks || got.Nodes != tc.wantNodes {
				t.Errorf("tasks %d nodes %d, want %d and %d", got.NTasks, got.Nodes, tc.wantTasks, tc.wantNodes)
			}
			if diff := cmp.Diff(tc.wantArgv, got.Argv); diff != "" {
				t.Errorf("argv (-want +got):\n%s", diff)
			}
			if got.MultiProg != tc.wantConfig || got.Name != "mp.conf" {
				t.Errorf("configuration %q, name %q", got.MultiProg, got.Name)
			}
		})
	}
}
