package isolationtest

import (
	"fmt"
	"slices"
	"sync"
	"syscall"

	"github.com/loamhpc/loam/pkg/isolation"
)

// Isolator is a fake isolation.Isolator. Its zero value is ready to use.
type Isolator struct {
	mu     sync.Mutex
	groups map[string]*Group
	// CreateErr, when set, is returned by Create.
	CreateErr error
}

var _ isolation.Isolator = (*Isolator)(nil)

// Create implements isolation.Isolator.
func (f *Isolator) Create(s isolation.Spec) (isolation.Group, error) {
	if err := isolation.ValidName(s.Name); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.CreateErr != nil {
		return nil, f.CreateErr
	}
	if f.groups == nil {
		f.groups = map[string]*Group{}
	}
	if g, ok := f.groups[s.Name]; ok && len(g.pids) > 0 {
		return nil, fmt.Errorf("group %s exists with processes", s.Name)
	}
	g := &Group{Spec: s}
	f.groups[s.Name] = g
	return g, nil
}

// Load implements isolation.Isolator.
func (f *Isolator) Load(name string) (isolation.Group, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, ok := f.groups[name]
	if !ok || g.deleted {
		return nil, fmt.Errorf("group %s: %w", name, isolation.ErrNotExist)
	}
	return g, nil
}

// Group returns the group created under name, or nil.
func (f *Isolator) Group(name string) *Group {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.groups[name]
}

// Group is a fake isolation.Group.
type Group struct {
	Spec isolation.Spec

	mu       sync.Mutex
	pids     []int
	signals  []syscall.Signal
	children []syscall.Signal // SignalChildren
	kills    int
	oom      uint64
	deleted  bool
	OnSignal func(syscall.Signal) // called outside the lock, when set
}

// Name implements isolation.Group.
func (g *Group) Name() string { return g.Spec.Name }

// Add implements isolation.Group.
func (g *Group) Add(pid int) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pids = append(g.pids, pid)
	return nil
}

// Pids implements isolation.Group.
func (g *Group) Pids() ([]int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.pids), nil
}

// Signal implements isolation.Group: it records sig.
func (g *Group) Signal(sig syscall.Signal) error {
	g.mu.Lock()
	g.signals = append(g.signals, sig)
	on := g.OnSignal
	g.mu.Unlock()
	if on != nil {
		on(sig)
	}
	return nil
}

// Kill implements isolation.Group: it records the kill and empties the
// group.
func (g *Group) Kill() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.kills++
	g.pids = nil
	return nil
}

// Exit removes pid from the group, as when that process ends.
func (g *Group) Exit(pid int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pids = slices.DeleteFunc(g.pids, func(p int) bool { return p == pid })
}

// OOMKills implements isolation.Group.
func (g *Group) OOMKills() (uint64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.oom, nil
}

// Delete implements isolation.Group.
func (g *Group) Delete() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.pids) > 0 {
		return fmt.Errorf("delete group %s: %d processes remain", g.Spec.Name, len(g.pids))
	}
	g.deleted = true
	return nil
}

// SetOOMKills sets what OOMKills reports.
func (g *Group) SetOOMKills(n uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.oom = n
}

// Signals returns the signals sent to the group, in order.
func (g *Group) Signals() []syscall.Signal {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.signals)
}

// SignalChildren implements isolation.Group: it records sig.
func (g *Group) SignalChildren(sig syscall.Signal) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.children = append(g.children, sig)
	return nil
}

// ChildSignals are the signals SignalChildren sent, in order.
func (g *Group) ChildSignals() []syscall.Signal {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.children)
}

// Kills is how many times Kill was called.
func (g *Group) Kills() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.kills
}

// Deleted reports whether Delete succeeded.
func (g *Group) Deleted() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.deleted
}
