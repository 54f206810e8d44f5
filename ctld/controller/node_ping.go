package controller

import (
	"context"
	"time"
)

// requireRegistration is slurmctld's _require_node_reg for a node RESUME
// (from DOWN, DRAIN or FUTURE) or UNDRAIN brought back: it shows
// IDLE+NOT_RESPONDING ("idle*") and takes no job until it is heard from.
// Slurm pings it in its next background pass (ping_nodes_now, within a
// second: the peer's sinfo right after the update shows idle*, a second
// later idle); Loam pings it registrationPing after the update's answer,
// and its next heartbeat clears the flag if the ping cannot.
func (c *Controller) requireRegistration(b *batch, n *nodeRec) {
	n.noRespond = true
	t, ok := c.target(n.name)
	if !ok {
		return
	}
	b.sends = append(b.sends, func() {
		time.AfterFunc(registrationPing, func() { c.pingBack(t) })
	})
}

// registrationPing is how long after a RESUME or UNDRAIN the node is
// pinged: slurmctld's background pass runs once a second.
const registrationPing = 500 * time.Millisecond

// pingBack pings node t and, if it answers as itself, takes it back.
func (c *Controller) pingBack(t nodeTarget) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := c.noded.Ping(ctx, t.addr)
	if err != nil || resp.Host != t.node {
		return // its heartbeat will tell
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := c.nodes[t.node]; n != nil && n.noRespond && n.registered && !n.notResponding {
		n.noRespond = false
		c.updateEngine(n)
		c.schedule()
	}
}
