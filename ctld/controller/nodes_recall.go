package controller

import (
	"context"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// recallWorkers bounds the registration requests a starting controller
// has in flight. They use no agent slot: a cluster of unreachable nodes
// must not hold up the launches of the nodes that answer.
const recallWorkers = 32

// recallTimeout bounds each request.
const recallTimeout = 5 * time.Second

// recallNodes asks every configured node daemon that has not registered
// since this controller started to register now, as slurmctld sends
// REQUEST_NODE_REGISTRATION_STATUS to every slurmd when it starts. A
// restarted controller knows no node as up until it registers, and a
// daemon learns of the restart only at its next heartbeat (up to 30 s
// later, a third of SlurmdTimeout): without the request, jobs wait that
// long after every restart. The request is the reconfigure order: a
// daemon rereads its files at the first answer that shows a new
// configuration generation, which every start of the controller brings,
// and registers again after rereading; the order only brings that
// forward. Nodes are reached at their configured NodeAddr and Port.
// recallNodes returns once every request was answered, failed or ctx
// ended.
func (c *Controller) recallNodes(ctx context.Context) {
	targets := c.unregistered()
	if len(targets) == 0 {
		return
	}
	req := &api.NodedReconfigureRequest{Generation: c.configGeneration()}
	work := make(chan nodeTarget)
	var wg sync.WaitGroup
	for range min(recallWorkers, len(targets)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range work {
				c.recallNode(ctx, t, req)
			}
		}()
	}
	defer func() { close(work); wg.Wait() }()
	for _, t := range targets {
		select {
		case work <- t:
		case <-ctx.Done():
			return
		}
	}
}

// unregistered are the configured daemons of the nodes that have not
// registered, in name order.
func (c *Controller) unregistered() []nodeTarget {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []nodeTarget
	for _, n := range c.nodesByName() {
		if !n.registered && n.conf.Port > 0 {
			out = append(out, nodeTarget{node: n.name, addr: net.JoinHostPort(n.conf.Addr, strconv.Itoa(n.conf.Port))})
		}
	}
	return out
}

// recallNode sends one node's request unless it registered meanwhile.
func (c *Controller) recallNode(ctx context.Context, t nodeTarget, req *api.NodedReconfigureRequest) {
	c.mu.Lock()
	n := c.nodes[t.node]
	done := n == nil || n.registered
	c.mu.Unlock()
	if done {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, recallTimeout)
	defer cancel()
	if _, err := c.noded.NodedReconfigure(ctx, t.addr, req); err != nil {
		c.log.WithError(err).WithField("node", t.node).Debug("start: node daemon not reached; it registers when it next heartbeats")
	}
}
