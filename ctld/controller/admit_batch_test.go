package controller

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// batchRefusal is the peer's "sbatch: error: Batch job submission failed:"
// text for a --batch that does not fit -C.
const batchRefusal = "Job --batch option is invalid or not a subset of --constraints"

// TestBatchAdmit: the peer's answers to sbatch --batch with -C and
// --prefer ("" where it submitted the job).
func TestBatchAdmit(t *testing.T) {
	cs := admissionState(t)
	str := func(s string) *string { return &s }
	for name, tc := range map[string]struct {
		batch              *string
		constraint, prefer string
		want               string
	}{
		"--batch=cpu -C gpu":                           {batch: str("cpu"), constraint: "gpu", want: batchRefusal},
		"--batch=nosuch -C nosuch":                     {batch: str("nosuch"), constraint: "nosuch", want: batchRefusal},
		"--batch=gpu alone":                            {batch: str("gpu"), want: batchRefusal},
		"--batch= alone":                               {batch: str(""), want: batchRefusal},
		"--batch= -C gpu":                              {batch: str(""), constraint: "gpu"},
		"--batch=gpu -C gpu":                           {batch: str("gpu"), constraint: "gpu"},
		"--batch=gpu -C 'gpu|cpu'":                     {batch: str("gpu"), constraint: "gpu|cpu"},
		"--batch=gpu -C '[gpu|cpu]'":                   {batch: str("gpu"), constraint: "[gpu|cpu]"},
		"--batch=gpu -C gpu*2":                         {batch: str("gpu"), constraint: "gpu*2"},
		"--batch='gpu|cpu' -C gpu":                     {batch: str("gpu|cpu"), constraint: "gpu"},
		"--batch='nosuch|gpu' -C gpu":                  {batch: str("nosuch|gpu"), constraint: "gpu", want: batchRefusal},
		"--batch=gpu*2 -C gpu*2":                       {batch: str("gpu*2"), constraint: "gpu*2", want: batchRefusal},
		"--batch=nosuch -C '[gpu&cpu]': --batch first": {batch: str("nosuch"), constraint: "[gpu&cpu]", want: batchRefusal},
		"--batch=gpu -C '[gpu&cpu]': then -C's operators": {batch: str("gpu"), constraint: "[gpu&cpu]",
			want: "Invalid feature specification"},
		"--batch=gpu -C 'gpu&nosuch': then -C's names": {batch: str("gpu"), constraint: "gpu&nosuch",
			want: "Invalid feature specification"},
		"--batch=cpu -C 'gpu&&': -C's syntax first": {batch: str("cpu"), constraint: "gpu&&",
			want: "Invalid feature specification"},
		"--batch=cpu -C gpu*99: before the nodes": {batch: str("cpu"), constraint: "gpu*99", want: batchRefusal},
		"--batch=gpu --prefer=gpu":                {batch: str("gpu"), prefer: "gpu"},
		"--batch=gpu -C gpu --prefer=cpu":         {batch: str("gpu"), constraint: "gpu", prefer: "cpu", want: batchRefusal},
		"--batch=cpu -C gpu --prefer=cpu":         {batch: str("cpu"), constraint: "gpu", prefer: "cpu", want: batchRefusal},
		"--batch=cpu -C gpu --prefer=nosuch":      {batch: str("cpu"), constraint: "gpu", prefer: "nosuch", want: batchRefusal},
		"--batch=gpu --prefer='gpu&&'":            {batch: str("gpu"), prefer: "gpu&&", want: "Invalid feature specification"},
	} {
		t.Run(name, func(t *testing.T) {
			r := job.Request{BatchFeatures: tc.batch, Constraint: tc.constraint, Prefer: tc.prefer}
			a := &admitted{req: &r, partitions: []string{"normal"}}
			got := ""
			if aerr := admitConstraint(cs, a); aerr != nil {
				got = aerr.Code.Text()
			}
			if got != tc.want {
				t.Errorf("admitConstraint: %q, want %q", got, tc.want)
			}
		})
	}
}

// TestBatchUpdate: scontrol update of Features= or Prefer= checks the
// job's --batch against the new list and answers a misfit in the list's
// words, as the peer does for a --batch=gpu -C gpu job.
func TestBatchUpdate(t *testing.T) {
	cs := admissionState(t)
	str := func(s string) *string { return &s }
	for name, tc := range map[string]struct {
		u    api.JobUpdate
		want string
	}{
		"Features=cpu":     {u: api.JobUpdate{Features: str("cpu")}, want: "Invalid feature specification"},
		"Features=nosuch":  {u: api.JobUpdate{Features: str("nosuch")}, want: "Invalid feature specification"},
		"Features=gpu&cpu": {u: api.JobUpdate{Features: str("gpu&cpu")}},
		"Features= clears": {u: api.JobUpdate{Features: str("")}},
		"Prefer=cpu":       {u: api.JobUpdate{Prefer: str("cpu")}, want: "Invalid preferred feature specification"},
		"Prefer=gpu":       {u: api.JobUpdate{Prefer: str("gpu")}},
	} {
		t.Run(name, func(t *testing.T) {
			q := job.Request{BatchFeatures: str("gpu"), Constraint: "gpu"}
			got := ""
			if aerr := updateNodeTests(cs, &q, &tc.u); aerr != nil {
				got = aerr.Code.Text()
			}
			if got != tc.want {
				t.Errorf("updateNodeTests: %q, want %q", got, tc.want)
			}
		})
	}
}

// TestBatchHost: the node that runs the script is the first of the job's
// nodes, in slurm.conf's order, passing --batch, else its first node.
func TestBatchHost(t *testing.T) {
	cs := admissionState(t) // gpu[1-4] (gpu), then cpu[1-2] (cpu)
	c := &Controller{nodes: map[string]*nodeRec{}}
	for i := range cs.conf.Nodes {
		nc := &cs.conf.Nodes[i]
		c.nodes[nc.Name] = &nodeRec{name: nc.Name, conf: nc}
	}
	c.conf.Store(cs)
	str := func(s string) *string { return &s }
	alloc := func(names ...string) []api.NodeAllocation {
		var out []api.NodeAllocation
		for _, n := range names {
			out = append(out, api.NodeAllocation{Node: n})
		}
		return out
	}
	for name, tc := range map[string]struct {
		batch *string
		alloc []api.NodeAllocation
		want  string
	}{
		"no --batch":                  {alloc: alloc("gpu1", "cpu1"), want: "gpu1"},
		"--batch=cpu: the cpu node":   {batch: str("cpu"), alloc: alloc("gpu1", "cpu1"), want: "cpu1"},
		"--batch=gpu: the first gpu":  {batch: str("gpu"), alloc: alloc("cpu1", "gpu2", "gpu1"), want: "gpu1"},
		"none passes: the first node": {batch: str("gpu&cpu"), alloc: alloc("gpu1", "cpu1"), want: "gpu1"},
		"--batch=cpu on gpu nodes":    {batch: str("cpu"), alloc: alloc("gpu1", "gpu2"), want: "gpu1"},
		"an unknown name: first node": {batch: str("cpu|nosuch"), alloc: alloc("gpu1", "cpu1"), want: "gpu1"},
		"a trailing operator":         {batch: str("cpu|"), alloc: alloc("gpu1", "cpu1"), want: "gpu1"},
		"left to right":               {batch: str("gpu|cpu&cpu"), alloc: alloc("gpu1", "cpu1"), want: "cpu1"},
		"one node":                    {batch: str("cpu"), alloc: alloc("gpu3"), want: "gpu3"},
		"--batch=: the first node":    {batch: str(""), alloc: alloc("gpu1", "cpu1"), want: "gpu1"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := c.batchHost(&job.Request{BatchFeatures: tc.batch}, tc.alloc); got != tc.want {
				t.Errorf("batchHost = %s, want %s", got, tc.want)
			}
		})
	}
}
