package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing/fstest"
	"time"

	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/sim"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// replayUser submits every job of the live replay (the driver runs as
// root); the simulated jobs take the same user, so fair share matches.
const replayUser = "root"

// loadWindow reads the configuration (tenants.conf with a line for the
// replay's user added) and the trace rows submitted in [from, from+span),
// rebased so the window starts at trace second 0.
func loadWindow(tracePath, confPath string, from, span time.Duration) ([]sim.Job, *slurmconf.Config, error) {
	fsys, err := replayFS(confPath, "")
	if err != nil {
		return nil, nil, err
	}
	conf, err := sim.LoadConfig(fsys, "slurm.conf", "", "")
	if err != nil {
		return nil, nil, err
	}
	f, err := os.Open(tracePath)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	recs, err := sim.ReadTrace(f)
	if err != nil {
		return nil, nil, err
	}
	var window []sim.Record
	for _, r := range recs {
		if r.Submit >= from && r.Submit < from+span {
			r.Submit -= from
			window = append(window, r)
		}
	}
	jobs, err := sim.Prepare(window, cluster.SchedConfig(conf, sched.PolicyLoam), sim.DefaultPartition(conf))
	if err != nil {
		return nil, nil, err
	}
	for i := range jobs {
		jobs[i].Spec.User = replayUser
	}
	return jobs, conf, nil
}

// replayFS is slurm.conf and tenants.conf of confPath, the latter with a
// line for the replay's user in every tenant; extra is appended to
// slurm.conf.
func replayFS(confPath, extra string) (fstest.MapFS, error) {
	conf, err := os.ReadFile(confPath)
	if err != nil {
		return nil, err
	}
	fsys := fstest.MapFS{"slurm.conf": {Data: append(conf, extra...)}}
	tenants, err := os.ReadFile(filepath.Join(filepath.Dir(confPath), slurmconf.TenantsFile))
	if err != nil {
		return fsys, nil
	}
	t, err := slurmconf.ParseTenants(fstest.MapFS{"t": {Data: tenants}}, "t")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, tn := range t.Tenants {
		names = append(names, tn.Name)
	}
	text := string(tenants) + fmt.Sprintf("\nUserName=%s Accounts=%s\n", replayUser, strings.Join(names, ","))
	fsys[slurmconf.TenantsFile] = &fstest.MapFile{Data: []byte(text)}
	return fsys, nil
}

// simOutcome is what the simulator did with one job inside the window.
type simOutcome struct {
	start     time.Duration // first start; -1: none in the window
	preempted int           // preemptions decided in the window
}

// simulate replays jobs on the simulator, with a scheduling pass every
// wall-clock second of the live replay (scale trace seconds), as
// loam-ctld's periodic pass then runs, and keeps what happened before
// span (the simulator runs every job to its end; the live replay stops at
// the window's end).
func simulate(jobs []sim.Job, conf *slurmconf.Config, scale float64, span time.Duration) (map[string]simOutcome, error) {
	cp := make([]sim.Job, len(jobs))
	copy(cp, jobs)
	var log strings.Builder
	res, err := sim.Run(sim.Options{Config: cluster.SchedConfig(conf, sched.PolicyLoam), Nodes: cluster.Nodes(conf),
		Jobs: cp, Epoch: time.Unix(0, 0), Interval: time.Duration(scale * float64(time.Second)), Log: &log})
	if err != nil {
		return nil, err
	}
	byID := map[string]string{}
	out := make(map[string]simOutcome, len(res.Outcomes))
	for _, o := range res.Outcomes {
		byID[strconv.FormatUint(uint64(o.ID), 10)] = o.JobID
		start := time.Duration(-1)
		if o.Start >= 0 && o.Start < span.Seconds() {
			start = time.Duration(o.Start * float64(time.Second))
		}
		out[o.JobID] = simOutcome{start: start}
	}
	for _, line := range strings.Split(log.String(), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[1] != "preempt" {
			continue
		}
		t, err := strconv.ParseFloat(f[0], 64)
		if err != nil || t >= span.Seconds() {
			continue
		}
		id := byID[strings.TrimPrefix(f[2], "job=")]
		o := out[id]
		o.preempted++
		out[id] = o
	}
	return out, nil
}
