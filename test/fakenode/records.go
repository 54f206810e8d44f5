package fakenode

import (
	"slices"

	"github.com/loamhpc/loam/pkg/api"
)

// Launches returns the launches received, in order.
func (n *Node) Launches() []api.LaunchRequest {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.launches)
}

// Running returns the ids of the jobs the node runs, in id order.
func (n *Node) Running() []uint32 {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []uint32
	for id := range n.running {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// Terminations returns the terminate requests received.
func (n *Node) Terminations() []api.TerminateRequest {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.terms)
}

// Signals returns the signal requests received.
func (n *Node) Signals() []api.SignalRequest {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.signals)
}

// TimeLimits returns the time-limit updates received.
func (n *Node) TimeLimits() []api.TimeLimitRequest {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.limits)
}

// Reconfigures returns the reconfigure orders received.
func (n *Node) Reconfigures() []api.NodedReconfigureRequest {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.reconfs)
}
