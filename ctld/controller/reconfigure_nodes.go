package controller

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// reconfigureNodeTimeout bounds the order to each node daemon: it rereads
// its files and answers, as quickly as it answers a launch.
const reconfigureNodeTimeout = 10 * time.Second

// configGeneration names the configuration in force for the node daemons
// (api.RegisterResponse.ConfigGeneration): it moves at every reconfigure
// and at every start of the controller, so a daemon that missed the
// order rereads its files at its next heartbeat. A daemon rereads once
// too many after a restart of the controller, never once too few.
func (c *Controller) configGeneration() string {
	return strconv.FormatInt(c.started.UnixNano(), 36) + "." + strconv.FormatUint(c.reconfigs.Load(), 10)
}

// allTargets are the responding node daemons, in node order. c.mu must
// be held.
func (c *Controller) allTargets() []nodeTarget {
	var out []nodeTarget
	for _, n := range c.nodesByName() {
		if t, ok := c.target(n.name); ok {
			out = append(out, t)
		}
	}
	return out
}

// reconfigureNodes orders each target to reread its configuration, as
// slurmctld sends REQUEST_RECONFIGURE to every slurmd, and waits for the
// answers, so that a job submitted after scontrol reconfigure returns
// finds the new node settings. A daemon whose files do not load keeps
// the ones in force and says so; one that cannot be reached follows at
// its next heartbeat (configGeneration) or when it starts. Neither
// fails the reconfigure: the controller's own files are in force.
func (c *Controller) reconfigureNodes(targets []nodeTarget) {
	req := &api.NodedReconfigureRequest{Generation: c.configGeneration()}
	var wg sync.WaitGroup
	for _, t := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.agentSlots <- struct{}{}
			defer func() { <-c.agentSlots }()
			ctx, cancel := context.WithTimeout(context.Background(), reconfigureNodeTimeout)
			defer cancel()
			if _, err := c.noded.NodedReconfigure(ctx, t.addr, req); err != nil {
				c.log.WithError(err).WithField("node", t.node).Warn("reconfigure: the node daemon did not take the new configuration")
			}
		}()
	}
	wg.Wait()
}
