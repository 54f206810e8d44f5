package trigger

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

var t0 = time.Unix(1_800_000_000, 0).UTC()

func up() NodeView      { return NodeView{Idle: true, IdleSince: t0.Add(-time.Hour)} }
func busy() NodeView    { return NodeView{} }
func down() NodeView    { return NodeView{Down: true} }
func drained() NodeView { return NodeView{Drained: true} }

func nodes(kv ...any) map[string]NodeView {
	m := map[string]NodeView{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(NodeView)
	}
	return m
}

// pass is one Step: its time (seconds after t0), snapshot and the fires
// expected ("id:arg").
type pass struct {
	at   int
	snap Snapshot
	want []string
}

func run(t *testing.T, trig api.Trigger, nodeList []string, passes []pass) []uint32 {
	t.Helper()
	s := NewSet()
	s.Add(trig, nodeList)
	var dropped []uint32
	for i, p := range passes {
		fires, drop := s.Step(t0.Add(time.Duration(p.at)*time.Second), p.snap)
		dropped = append(dropped, drop...)
		var got []string
		for _, f := range fires {
			got = append(got, itoa(f.Trigger.ID)+":"+f.Arg)
			s.Done(f.Trigger.ID)
		}
		if diff := cmp.Diff(p.want, got); diff != "" {
			t.Fatalf("pass %d fires (-want +got):\n%s", i, diff)
		}
	}
	return dropped
}

func itoa(n uint32) string { return string(rune('0' + n)) }

func TestStepFires(t *testing.T) {
	three := func(a, b, c NodeView) Snapshot { return Snapshot{Nodes: nodes("n1", a, "n2", b, "n3", c)} }
	node := func(typ uint32, res string, offset int, perm bool) api.Trigger {
		return api.Trigger{ID: 1, ResType: api.TrigResNode, ResID: res, Type: typ, Offset: offset, Perm: perm, Program: "/bin/x"}
	}
	tests := map[string]struct {
		trig   api.Trigger
		nodes  []string
		passes []pass
	}{
		"a node going down fires a --down trigger on every node with its name": {
			trig: node(api.TrigDown, "*", 0, false),
			passes: []pass{
				{0, three(up(), up(), busy()), nil},
				{1, three(down(), up(), down()), []string{"1:n[1,3]"}},
				{2, three(up(), down(), down()), nil}, // one-shot: gone after its run
			},
		},
		"a node already down at the first pass fires nothing": {
			trig:   node(api.TrigDown, "*", 0, false),
			passes: []pass{{0, three(down(), up(), up()), nil}, {1, three(down(), up(), up()), nil}},
		},
		"a --node list only sees its own nodes": {
			trig: node(api.TrigDown, "n2", 0, false), nodes: []string{"n2"},
			passes: []pass{
				{0, three(up(), up(), up()), nil},
				{1, three(down(), up(), up()), nil},
				{2, three(down(), down(), up()), []string{"1:n2"}},
			},
		},
		"the offset delays the program": {
			trig: node(api.TrigDrained, "*", 5, false),
			passes: []pass{
				{0, three(up(), up(), up()), nil},
				{1, three(drained(), up(), up()), nil},
				{5, three(drained(), up(), up()), nil},
				{6, three(drained(), up(), up()), []string{"1:n1"}},
			},
		},
		"a permanent --up trigger fires at each return": {
			trig: node(api.TrigUp, "*", 0, true),
			passes: []pass{
				{0, three(down(), up(), up()), nil},
				{1, three(up(), up(), up()), []string{"1:n1"}},
				{2, three(up(), down(), up()), nil},
				{3, three(up(), up(), up()), []string{"1:n2"}},
			},
		},
		"--drained --up fires on the first event of either": {
			trig: node(api.TrigDrained|api.TrigUp, "*", 0, false),
			passes: []pass{
				{0, three(down(), up(), up()), nil},
				{1, three(up(), up(), up()), []string{"1:n1"}},
			},
		},
		"--fail fires when a node is set to fail": {
			trig:   node(api.TrigFail, "*", 0, false),
			passes: []pass{{0, three(up(), up(), up()), nil}, {1, three(up(), NodeView{Fail: true}, up()), []string{"1:n2"}}},
		},
		"--idle with an offset waits for that much idle time": {
			trig: node(api.TrigIdle, "*", 600, false),
			passes: []pass{
				{0, Snapshot{Nodes: nodes("n1", NodeView{Idle: true, IdleSince: t0.Add(-5 * time.Minute)}, "n2", busy())}, nil},
				{300, Snapshot{Nodes: nodes("n1", NodeView{Idle: true, IdleSince: t0.Add(-5 * time.Minute)}, "n2", busy())}, []string{"1:n1"}},
			},
		},
		"a permanent --idle trigger repeats at Slurm's pace": {
			trig: node(api.TrigIdle, "*", 0, true),
			passes: []pass{
				{0, three(up(), busy(), busy()), []string{"1:n1"}},
				{1, three(up(), busy(), busy()), nil},
				{15, three(up(), busy(), busy()), []string{"1:n1"}},
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) { run(t, tc.trig, tc.nodes, tc.passes) })
	}
}

func TestStepJobTriggers(t *testing.T) {
	job := func(typ uint32, offset int) api.Trigger {
		return api.Trigger{ID: 2, ResType: api.TrigResJob, ResID: "42", Type: typ, Offset: offset, Program: "/bin/x"}
	}
	running := func(left time.Duration, at int) Snapshot {
		return Snapshot{Jobs: map[uint32]JobView{42: {End: t0.Add(time.Duration(at)*time.Second + left)}}}
	}
	tests := map[string]struct {
		trig     api.Trigger
		passes   []pass
		wantDrop []uint32
	}{
		"--fini fires with the job id when the job ends": {
			trig: job(api.TrigFini, 0),
			passes: []pass{
				{0, running(time.Hour, 0), nil},
				{1, Snapshot{Jobs: map[uint32]JobView{42: {Done: true}}}, []string{"2:42"}},
			},
		},
		"--fini fires when the job is already forgotten": {
			trig:   job(api.TrigFini, 0),
			passes: []pass{{0, Snapshot{}, []string{"2:42"}}},
		},
		"--time with a negative offset fires that long before the limit": {
			trig: job(api.TrigTime, -120),
			passes: []pass{
				{0, running(121*time.Second, 0), nil},
				{1, running(120*time.Second, 1), []string{"2:42"}},
			},
		},
		"--time waits while the job is pending": {
			trig:   job(api.TrigTime, 0),
			passes: []pass{{0, Snapshot{Jobs: map[uint32]JobView{42: {Pending: true}}}, nil}},
		},
		"--time fires at the end of a job that ends before its limit, as Slurm's": {
			trig: job(api.TrigTime, -120),
			passes: []pass{
				{0, running(time.Hour, 0), nil},
				{5, Snapshot{Jobs: map[uint32]JobView{42: {Done: true, End: t0.Add(4 * time.Second)}}}, []string{"2:42"}},
			},
		},
		"--time is dropped when the job is forgotten first": {
			trig:     job(api.TrigTime, 0),
			passes:   []pass{{0, running(time.Hour, 0), nil}, {1, Snapshot{}, nil}},
			wantDrop: []uint32{2},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := run(t, tc.trig, nil, tc.passes)
			if diff := cmp.Diff(tc.wantDrop, got); diff != "" {
				t.Errorf("dropped (-want +got):\n%s", diff)
			}
		})
	}
}

func TestArgvAsSlurmBuildsIt(t *testing.T) {
	f := Fire{Trigger: api.Trigger{Program: "/usr/local/sbin/notify admin now", UID: 1000, GID: 100}, Arg: "gpu[01-02]"}
	got := ExecOf(f)
	want := Exec{Path: "/usr/local/sbin/notify", Argv: []string{"notify", "admin", "now", "gpu[01-02]"}, UID: 1000, GID: 100}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exec (-want +got):\n%s", diff)
	}
}

func TestListHidesFiredOneShots(t *testing.T) {
	s := NewSet()
	s.Add(api.Trigger{ID: 3, ResType: api.TrigResNode, ResID: "*", Type: api.TrigIdle, Program: "/bin/x"}, nil)
	s.Add(api.Trigger{ID: 1, ResType: api.TrigResNode, ResID: "*", Type: api.TrigIdle, Perm: true, Program: "/bin/x"}, nil)
	fires, _ := s.Step(t0, Snapshot{Nodes: nodes("n1", up())})
	if len(fires) != 2 {
		t.Fatalf("fires = %v; want both", fires)
	}
	var ids []uint32
	for _, tr := range s.List() {
		ids = append(ids, tr.ID)
	}
	if diff := cmp.Diff([]uint32{1}, ids); diff != "" {
		t.Errorf("listed while running (-want +got):\n%s", diff)
	}
	if s.Done(3) != true || s.Done(1) != false {
		t.Errorf("Done: the one-shot trigger is gone, the permanent one stays")
	}
}

// TestChangesReportedBetweenPasses: the controller reports node changes
// where it makes them (Slurm's trigger_node_drained and the like, called
// from its node manager), so a drain undone before the next pass still
// fires, and a reconfiguration fires --reconfig with Slurm's argument.
func TestChangesReportedBetweenPasses(t *testing.T) {
	node := func(typ uint32, res string) api.Trigger {
		return api.Trigger{ID: 1, ResType: api.TrigResNode, ResID: res, Type: typ, Program: "/bin/x"}
	}
	two := Snapshot{Nodes: nodes("n1", up(), "n2", up())}
	tests := map[string]struct {
		trig  api.Trigger
		nodes []string
		// between runs on the set after the first pass.
		between func(s *Set)
		want    []string
	}{
		"a drain then resume within a pass fires --drained": {
			trig: node(api.TrigDrained, "*"),
			between: func(s *Set) {
				s.NodeChanged("n2", up(), drained())
				s.NodeChanged("n2", drained(), up())
			},
			want: []string{"1:n2"},
		},
		"a down and back up within a pass fires --down": {
			trig:    node(api.TrigDown, "n1"),
			nodes:   []string{"n1"},
			between: func(s *Set) { s.NodeChanged("n1", up(), down()); s.NodeChanged("n1", down(), up()) },
			want:    []string{"1:n1"},
		},
		"another node's change does not fire a --node list": {
			trig:    node(api.TrigDrained, "n1"),
			nodes:   []string{"n1"},
			between: func(s *Set) { s.NodeChanged("n2", up(), drained()) },
		},
		"a reconfiguration fires --reconfig with the argument reconfig": {
			trig:    node(api.TrigReconfig, "*"),
			between: func(s *Set) { s.Reconfigured() },
			want:    []string{"1:reconfig"},
		},
		"--reconfig waits for a reconfiguration": {
			trig:    node(api.TrigReconfig, "*"),
			between: func(s *Set) { s.NodeChanged("n1", up(), down()) },
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s := NewSet()
			s.Add(tc.trig, tc.nodes)
			if fires, _ := s.Step(t0, two); len(fires) != 0 {
				t.Fatalf("first pass fired %v", fires)
			}
			tc.between(s)
			fires, _ := s.Step(t0.Add(time.Second), two)
			var got []string
			for _, f := range fires {
				got = append(got, itoa(f.Trigger.ID)+":"+f.Arg)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("fires (-want +got):\n%s", diff)
			}
			if fires, _ := s.Step(t0.Add(2*time.Second), two); len(fires) != 0 {
				t.Errorf("a reported change fired again at the next pass: %v", fires)
			}
		})
	}
}

func TestNothingNotedWithoutTriggers(t *testing.T) {
	s := NewSet()
	s.NodeChanged("n1", up(), drained())
	s.Reconfigured()
	s.Add(api.Trigger{ID: 1, ResType: api.TrigResNode, ResID: "*", Type: api.TrigDrained | api.TrigReconfig, Program: "/bin/x"}, nil)
	if fires, _ := s.Step(t0, Snapshot{Nodes: nodes("n1", up())}); len(fires) != 0 {
		t.Errorf("changes before the first trigger fired it: %v", fires)
	}
}
