package trigger

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestStepJobNodeTriggers: a job's --down, --fail and --up triggers watch
// the job's nodes, as Slurm's do, and pass the job id to the program.
func TestStepJobNodeTriggers(t *testing.T) {
	job := func(typ uint32, offset int) api.Trigger {
		return api.Trigger{ID: 2, ResType: api.TrigResJob, ResID: "42", Type: typ, Offset: offset, Program: "/bin/x"}
	}
	// on is a pass with job 42 running on jobNodes.
	on := func(n1, n2 NodeView, jobNodes ...string) Snapshot {
		snap := Snapshot{Nodes: nodes("n1", n1, "n2", n2), Jobs: map[uint32]JobView{42: {End: t0.Add(time.Hour)}}}
		for _, n := range jobNodes {
			v := snap.Nodes[n]
			v.Jobs = []uint32{42}
			snap.Nodes[n] = v
		}
		return snap
	}
	tests := map[string]struct {
		trig   api.Trigger
		passes []pass
	}{
		"--down fires when one of the job's nodes goes down": {
			trig:   job(api.TrigDown, 0),
			passes: []pass{{0, on(busy(), up(), "n1"), nil}, {1, on(down(), up(), "n1"), []string{"2:42"}}},
		},
		"--down ignores the nodes the job does not hold": {
			trig:   job(api.TrigDown, 0),
			passes: []pass{{0, on(busy(), up(), "n1"), nil}, {1, on(busy(), down(), "n1"), nil}},
		},
		"--down waits while the job is pending": {
			trig:   job(api.TrigDown, 0),
			passes: []pass{{0, on(up(), up()), nil}, {1, on(down(), up()), nil}},
		},
		"--down fires when the failure already requeued the job": {
			trig:   job(api.TrigDown, 0),
			passes: []pass{{0, on(busy(), up(), "n1"), nil}, {1, on(down(), up()), []string{"2:42"}}},
		},
		"--down with an offset waits": {
			trig: job(api.TrigDown, 10),
			passes: []pass{
				{0, on(busy(), up(), "n1"), nil},
				{1, on(down(), up(), "n1"), nil},
				{11, on(down(), up(), "n1"), []string{"2:42"}},
			},
		},
		"--fail fires when one of the job's nodes is set to fail": {
			trig:   job(api.TrigFail, 0),
			passes: []pass{{0, on(busy(), busy(), "n1", "n2"), nil}, {1, on(busy(), NodeView{Fail: true}, "n1", "n2"), []string{"2:42"}}},
		},
		"--up fires when one of the job's nodes returns": {
			trig:   job(api.TrigUp, 0),
			passes: []pass{{0, on(down(), busy(), "n1", "n2"), nil}, {1, on(busy(), busy(), "n1", "n2"), []string{"2:42"}}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) { run(t, tc.trig, nil, tc.passes) })
	}
}

// TestListLikeSlurm: strigger --get leaves out a trigger whose event
// happened while its offset runs, permanent or not (the peer listed
// neither of two --fini --offset=60 triggers of an ended job, then the
// permanent one again, as set, once its program started).
func TestListLikeSlurm(t *testing.T) {
	s := NewSet()
	node := api.Trigger{ID: 1, ResType: api.TrigResNode, ResID: "n[1-2]", Type: api.TrigDown, Offset: 60, Perm: true, Program: "/bin/x"}
	s.Add(node, []string{"n1", "n2"})
	s.Add(api.Trigger{ID: 2, ResType: api.TrigResNode, ResID: "*", Type: api.TrigDown, Offset: 60, Program: "/bin/x"}, nil)
	ids := func() (out []string) {
		for _, tr := range s.List() {
			out = append(out, itoa(tr.ID)+":"+tr.ResID)
		}
		return out
	}
	s.Step(t0, Snapshot{Nodes: nodes("n1", up(), "n2", up())})
	if diff := cmp.Diff([]string{"1:n[1-2]", "2:*"}, ids()); diff != "" {
		t.Errorf("waiting (-want +got):\n%s", diff)
	}
	s.Step(t0.Add(time.Second), Snapshot{Nodes: nodes("n1", down(), "n2", up())})
	if got := ids(); len(got) != 0 {
		t.Errorf("listed while the offset runs: %v", got)
	}
	fires, _ := s.Step(t0.Add(61*time.Second), Snapshot{Nodes: nodes("n1", down(), "n2", up())})
	var args []string
	for _, f := range fires {
		args = append(args, itoa(f.Trigger.ID)+":"+f.Arg)
	}
	if diff := cmp.Diff([]string{"1:n1", "2:n1"}, args); diff != "" {
		t.Errorf("fires (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"1:n[1-2]"}, ids()); diff != "" {
		t.Errorf("running (-want +got):\n%s", diff)
	}
}

// TestListOrderLikeSlurm: a permanent trigger whose program started lists
// first, the latest first, as the peer listed 19, 16, 20 and then 16, 19,
// 20 for two permanent --fini triggers of ended jobs (16, 19) and a
// one-shot one (20) still waiting.
func TestListOrderLikeSlurm(t *testing.T) {
	s := NewSet()
	fini := func(id uint32, job string, perm bool) api.Trigger {
		return api.Trigger{ID: id, ResType: api.TrigResJob, ResID: job, Type: api.TrigFini, Perm: perm, Program: "/bin/x"}
	}
	s.Add(fini(1, "41", true), nil)
	s.Add(fini(2, "42", true), nil)
	s.Add(fini(3, "43", false), nil)
	running := JobView{End: t0.Add(time.Hour)}
	passes := []struct {
		jobs map[uint32]JobView
		want []uint32
	}{
		{map[uint32]JobView{41: running, 42: running, 43: running}, []uint32{1, 2, 3}},
		{map[uint32]JobView{41: running, 42: {Done: true}, 43: running}, []uint32{2, 1, 3}},
		{map[uint32]JobView{41: {Done: true}, 42: {Done: true}, 43: running}, []uint32{1, 2, 3}},
		{map[uint32]JobView{41: {Done: true}, 42: {Done: true}, 43: running}, []uint32{2, 1, 3}},
	}
	for i, p := range passes {
		fires, _ := s.Step(t0.Add(time.Duration(i)*time.Second), Snapshot{Jobs: p.jobs})
		var got []uint32
		for _, tr := range s.List() {
			got = append(got, tr.ID)
		}
		if diff := cmp.Diff(p.want, got); diff != "" {
			t.Errorf("pass %d list (-want +got):\n%s", i, diff)
		}
		for _, f := range fires {
			s.Done(f.Trigger.ID)
		}
	}
}

// TestClearable: a trigger waiting out its offset may be cleared though
// it is not listed; a one-shot trigger whose program runs may not.
func TestClearable(t *testing.T) {
	s := NewSet()
	s.Add(api.Trigger{ID: 1, ResType: api.TrigResNode, ResID: "*", Type: api.TrigDown, Offset: 60, Program: "/bin/x"}, nil)
	s.Add(api.Trigger{ID: 2, ResType: api.TrigResNode, ResID: "*", Type: api.TrigDown, Program: "/bin/x"}, nil)
	s.Add(api.Trigger{ID: 3, ResType: api.TrigResNode, ResID: "*", Type: api.TrigDown, Perm: true, Program: "/bin/x"}, nil)
	s.Add(api.Trigger{ID: 4, ResType: api.TrigResNode, ResID: "*", Type: api.TrigUp, Program: "/bin/x"}, nil)
	s.Step(t0, Snapshot{Nodes: nodes("n1", up())})
	s.Step(t0.Add(time.Second), Snapshot{Nodes: nodes("n1", down())})
	var got []uint32
	for _, tr := range s.Clearable() {
		got = append(got, tr.ID)
	}
	if diff := cmp.Diff([]uint32{1, 3, 4}, got); diff != "" {
		t.Errorf("clearable (-want +got):\n%s", diff)
	}
}

// TestJobTriggerNodeChangedBetweenPasses: a node failure reported where
// the controller makes it fires the --fail trigger of a job that ran
// there, though the job left the node before the next pass.
func TestJobTriggerNodeChangedBetweenPasses(t *testing.T) {
	s := NewSet()
	s.Add(api.Trigger{ID: 2, ResType: api.TrigResJob, ResID: "42", Type: api.TrigFail, Program: "/bin/x"}, nil)
	jobs := map[uint32]JobView{42: {Pending: true}}
	s.Step(t0, Snapshot{Nodes: nodes("n1", busy()), Jobs: jobs})
	s.NodeChanged("n1", NodeView{Jobs: []uint32{42}}, NodeView{Fail: true})
	fires, _ := s.Step(t0.Add(time.Second), Snapshot{Nodes: nodes("n1", NodeView{Fail: true}), Jobs: jobs})
	var got []string
	for _, f := range fires {
		got = append(got, itoa(f.Trigger.ID)+":"+f.Arg)
	}
	if diff := cmp.Diff([]string{"2:42"}, got); diff != "" {
		t.Errorf("fires (-want +got):\n%s", diff)
	}
}
