package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/noded/usage"
	"github.com/loamhpc/loam/pkg/api"
)

// stepUsage measures the live usage of a step of a job running here
// (sstat): a numbered step's processes are those of its cgroup, the
// batch step's those of the job's cgroup outside its steps' groups.
func (a *Agent) stepUsage(ctx context.Context, req *api.NodedUsageRequest) (*api.NodeUsage, *api.Error) {
	empty := &api.NodeUsage{Node: a.nc.node.Name, Tasks: []api.TaskUsage{}}
	e := a.entry(ctx, req.JobID)
	if e == nil {
		return empty, nil
	}
	if req.Step != nil {
		g, aerr := a.stepGroup(e, *req.Step)
		if aerr != nil || g == nil {
			return empty, aerr
		}
		pids, err := g.Pids()
		if err != nil {
			return empty, nil // the step ended meanwhile
		}
		n := usage.Live(a.nc.node.Name, pids, func(sid int) int { return usage.SessionTask(sid, -1) })
		n.MemPeak = usage.MemPeak(g.Name())
		return &n, nil
	}
	pids, aerr := a.batchPids(e)
	if aerr != nil {
		return empty, aerr
	}
	n := usage.Live(a.nc.node.Name, pids, func(int) int { return 0 })
	return &n, nil
}

// batchPids lists the processes of job e's cgroup that belong to none of
// its steps.
func (a *Agent) batchPids(e *jobEntry) ([]int, *api.Error) {
	if a.iso == nil {
		return nil, api.Errorf(api.CodeCommunication, "cgroups are unavailable on %s", a.nc.node.Name)
	}
	var l spool.Launch
	if err := spool.ReadJSON(filepath.Join(e.dir, spool.LaunchFile), &l); err != nil {
		return nil, api.Errorf(api.CodeCommunication, "job %d: %v", e.id, err)
	}
	g, err := a.iso.Load(l.Group)
	if err != nil {
		return nil, nil
	}
	all, err := g.Pids()
	if err != nil {
		return nil, nil
	}
	var inSteps []int
	for _, id := range stepIDs(e.dir) {
		if sg, aerr := a.stepGroup(e, id); aerr == nil && sg != nil {
			if p, err := sg.Pids(); err == nil {
				inSteps = append(inSteps, p...)
			}
		}
	}
	return slices.DeleteFunc(all, func(p int) bool { return slices.Contains(inSteps, p) }), nil
}

// stepIDs lists the steps launched in job directory dir.
func stepIDs(dir string) []uint32 {
	entries, _ := os.ReadDir(dir)
	var out []uint32
	for _, d := range entries {
		if rest, ok := strings.CutPrefix(d.Name(), "step_"); ok && d.IsDir() {
			if id, err := strconv.ParseUint(rest, 10, 32); err == nil {
				out = append(out, uint32(id))
			}
		}
	}
	return out
}
