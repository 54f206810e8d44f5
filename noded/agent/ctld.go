package agent

import (
	"context"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// defaultHeartbeat is used until the controller names an interval.
const defaultHeartbeat = 30 * time.Second

// talk registers with the controller and heartbeats until ctx ends. A
// failed call is retried with backoff; the controller may ask for a new
// registration at any heartbeat.
func (a *Agent) talk(ctx context.Context) {
	interval, registered := defaultHeartbeat, false
	backoff := time.Duration(0)
	for {
		if backoff > 0 || registered {
			wait := interval
			if backoff > 0 {
				wait = backoff
			}
			select {
			case <-ctx.Done():
				return
			case <-a.reregister:
				// Reconfigured (reload.go): register at once, as slurmd
				// does after rereading its files.
				registered, backoff = false, 0
			case <-time.After(wait):
			}
		}
		var err error
		if !registered {
			interval, err = a.register(ctx)
			registered = err == nil
		} else {
			registered, err = a.heartbeat(ctx)
			if !registered {
				backoff = 0
				continue // register at once
			}
		}
		if err != nil {
			backoff = min(max(2*backoff, time.Second), 30*time.Second)
			a.log.WithError(err).Warn("controller unreachable")
			continue
		}
		backoff = 0
	}
}

// register sends the node's registration and applies the answer.
func (a *Agent) register(ctx context.Context) (time.Duration, error) {
	a.mu.Lock() // a reconfigure may change emulated hardware (reload.go)
	req := a.hw.register(a.nc.node.Name, a.nc.hostname)
	a.mu.Unlock()
	req.Addr, req.Version, req.StartTime = a.addr, Version, a.started0.Unix()
	req.CPULoad, req.FreeMemory = loadNow()
	req.Running = a.running(true)
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	resp, err := a.ctld.Register(cctx, &req)
	if err != nil {
		return defaultHeartbeat, err
	}
	if skew := time.Since(time.Unix(resp.Now, 0)); resp.Now > 0 && (skew > 5*time.Second || skew < -5*time.Second) {
		a.log.WithField("skew", skew.String()).Warn("clock differs from the controller's")
	}
	a.log.WithField("state", resp.State).WithField("running", len(req.Running)).Info("registered")
	a.health.Load().setState(resp.State, resp.Drain)
	a.followGeneration(ctx, resp.ConfigGeneration) // reload.go
	go a.killJobs(ctx, resp.Kill)
	interval := time.Duration(resp.HeartbeatInterval) * time.Second
	if interval <= 0 {
		interval = defaultHeartbeat
	}
	return interval, nil
}

// heartbeat reports the node alive; false asks for a new registration.
func (a *Agent) heartbeat(ctx context.Context) (bool, error) {
	req := api.HeartbeatRequest{Node: a.nc.node.Name, Health: a.hw.health(), Now: time.Now().Unix()}
	req.CPULoad, req.FreeMemory = loadNow()
	for _, rj := range a.running(false) {
		req.Running = append(req.Running, rj.JobID)
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	resp, err := a.ctld.Heartbeat(cctx, &req)
	if err != nil {
		return true, err
	}
	if len(resp.Kill) > 0 {
		go a.killJobs(ctx, resp.Kill)
	}
	a.health.Load().setState(resp.State, resp.Drain)
	a.followGeneration(ctx, resp.ConfigGeneration) // reload.go
	return !resp.Reregister, nil
}

// running lists the jobs this node runs. For a registration it also lists
// jobs whose end the controller has not acknowledged yet, so they are not
// taken for lost: their end event follows.
func (a *Agent) running(unacked bool) []api.RunningJob {
	a.mu.Lock()
	defer a.mu.Unlock()
	seen := map[uint32]bool{}
	var out []api.RunningJob
	for id, e := range a.jobs {
		seen[id] = true
		out = append(out, api.RunningJob{JobID: id, StartTime: e.start.Unix()})
	}
	if unacked {
		for _, ev := range a.out.pending {
			if ev.Kind == api.EventEnded && !seen[ev.JobID] {
				seen[ev.JobID] = true
				out = append(out, api.RunningJob{JobID: ev.JobID})
			}
		}
	}
	slices.SortFunc(out, func(x, y api.RunningJob) int { return int(x.JobID) - int(y.JobID) })
	return out
}
