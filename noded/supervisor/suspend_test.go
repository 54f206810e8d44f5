package supervisor

import (
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/isolation"
	"github.com/loamhpc/loam/pkg/isolation/isolationtest"
)

// freezingGroup is a fake group with a freezer.
type freezingGroup struct {
	*isolationtest.Group
	states []string
}

func (g *freezingGroup) Freeze() error { g.states = append(g.states, "frozen"); return nil }
func (g *freezingGroup) Thaw() error   { g.states = append(g.states, "thawed"); return nil }

// TestSetFrozen: a group with a freezer is frozen and thawed through it;
// one without gets SIGSTOP and SIGCONT; without a group it is an error.
func TestSetFrozen(t *testing.T) {
	iso := &isolationtest.Isolator{}
	plain, err := iso.Create(isolation.Spec{Name: "loam/job_1"})
	if err != nil {
		t.Fatal(err)
	}
	s := &Supervisor{group: plain}
	if err := s.setFrozen(true); err != nil {
		t.Fatal(err)
	}
	if err := s.setFrozen(false); err != nil {
		t.Fatal(err)
	}
	want := []syscall.Signal{syscall.SIGSTOP, syscall.SIGCONT}
	if diff := cmp.Diff(want, plain.(*isolationtest.Group).Signals()); diff != "" {
		t.Errorf("signals without a freezer (-want +got):\n%s", diff)
	}

	fg := &freezingGroup{Group: plain.(*isolationtest.Group)}
	s.group = fg
	_ = s.setFrozen(true)
	_ = s.setFrozen(false)
	if diff := cmp.Diff([]string{"frozen", "thawed"}, fg.states); diff != "" {
		t.Errorf("freezer states (-want +got):\n%s", diff)
	}

	if err := (&Supervisor{}).setFrozen(true); err == nil {
		t.Error("freezing without a cgroup succeeded")
	}
}
