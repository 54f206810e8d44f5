//go:build integration

package test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/test/clustertest"
)

// liveWait bounds each wait of the live tests: jobs here last seconds.
const liveWait = 45 * time.Second

// liveCluster is a real loam-ctld with real loam-noded daemons (emulated
// nodes running real processes in cgroups).
type liveCluster struct {
	t    *testing.T
	c    *clustertest.Cluster
	d    *clustertest.Ctld
	cl   *client.Client
	work string
	// nodes are the node daemons, in node order.
	nodes []*daemon
}

// startLive writes the configuration (and tenants.conf when given),
// starts loam-ctld and one loam-noded per node, and waits until every
// node is up.
func startLive(t *testing.T, spec clustertest.Spec, tenants string) *liveCluster {
	t.Helper()
	nodedBin(t)
	t.Cleanup(cleanCgroups)
	c := clustertest.New(t, spec)
	lc := &liveCluster{t: t, c: c, work: t.TempDir()}
	if tenants != "" {
		lc.writeTenants(tenants)
	}
	lc.d = c.StartCtld(t)
	lc.cl = lc.d.Client()
	if err := os.Chmod(lc.work, 0o777); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < spec.Nodes; i++ {
		lc.nodes = append(lc.nodes, realNoded(t, c, i))
	}
	lc.eventually("every node up", func() error {
		resp, err := lc.cl.Nodes(context.Background(), &api.NodeQuery{})
		if err != nil {
			return err
		}
		for _, n := range resp.Nodes {
			if strings.Contains(strings.ToUpper(n.State), "DOWN") || strings.Contains(n.State, "UNKNOWN") {
				return fmt.Errorf("node %s is %s", n.Name, n.State)
			}
		}
		return nil
	})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("controller log:\n%s", lc.d.Log())
		}
	})
	return lc
}

// writeTenants replaces tenants.conf.
func (lc *liveCluster) writeTenants(text string) {
	lc.t.Helper()
	if err := os.WriteFile(filepath.Join(lc.c.Dir, "tenants.conf"), []byte(text), 0o644); err != nil {
		lc.t.Fatal(err)
	}
}

// eventually polls check until it passes or liveWait ends.
func (lc *liveCluster) eventually(what string, check func() error) {
	lc.t.Helper()
	clustertest.Eventually(lc.t, liveWait, what, check)
}

// script is a batch job running body under bash in the work directory.
func (lc *liveCluster) script(body string, mods ...func(*job.Request)) job.Request {
	r := clustertest.Job(func(r *job.Request) {
		r.Script = "#!/bin/bash\n" + body + "\n"
		r.WorkDir = lc.work
		r.Environment = []string{"PATH=/usr/bin:/bin", "HOME=" + lc.work}
	})
	for _, m := range mods {
		m(&r)
	}
	return r
}

// submit submits r and returns its id.
func (lc *liveCluster) submit(r job.Request) uint32 {
	lc.t.Helper()
	return clustertest.Submit(lc.t, lc.cl, r)
}

// job returns job id's record.
func (lc *liveCluster) job(id uint32) api.Job {
	lc.t.Helper()
	j, err := clustertest.JobState(lc.cl, id)
	if err != nil {
		lc.t.Fatal(err)
	}
	return j
}

// waitJob waits until job id satisfies ok, describing it as what.
func (lc *liveCluster) waitJob(id uint32, what string, ok func(j api.Job) bool) api.Job {
	lc.t.Helper()
	var last api.Job
	lc.eventually(fmt.Sprintf("job %d %s", id, what), func() error {
		j, err := clustertest.JobState(lc.cl, id)
		if err != nil {
			return err
		}
		last = j
		if !ok(j) {
			return fmt.Errorf("state %s reason %s restarts %d", j.JobState, j.StateReason, j.Restarts)
		}
		return nil
	})
	return last
}

// waitState waits until job id is in state st.
func (lc *liveCluster) waitState(id uint32, st job.State) api.Job {
	lc.t.Helper()
	return lc.waitJob(id, string(st), func(j api.Job) bool { return j.JobState == st })
}

// file returns the content of a file in the work directory ("" when it
// does not exist).
func (lc *liveCluster) file(name string) string {
	data, _ := os.ReadFile(filepath.Join(lc.work, name))
	return string(data)
}

// waitFile waits until a file of the work directory exists and contains
// want.
func (lc *liveCluster) waitFile(name, want string) {
	lc.t.Helper()
	lc.eventually(fmt.Sprintf("%s to contain %q", name, want), func() error {
		data, err := os.ReadFile(filepath.Join(lc.work, name))
		if err != nil {
			return err
		}
		if !strings.Contains(string(data), want) {
			return fmt.Errorf("%s holds %q", name, data)
		}
		return nil
	})
}

// touch creates a gate file in the work directory.
func (lc *liveCluster) touch(name string) {
	lc.t.Helper()
	if err := os.WriteFile(filepath.Join(lc.work, name), nil, 0o644); err != nil {
		lc.t.Fatal(err)
	}
}

// gated is a job body that marks itself running and waits for a gate.
func gated(name string) string {
	return fmt.Sprintf("touch running-%s; while [ ! -e gate-%s ]; do sleep 0.1; done", name, name)
}

// events returns job id's event kinds, in order.
func (lc *liveCluster) events(id uint32) []string {
	lc.t.Helper()
	resp, err := lc.cl.JobLog(context.Background(), &api.JobLogQuery{JobID: id})
	if err != nil {
		lc.t.Fatal(err)
	}
	var out []string
	for _, e := range resp.Events {
		out = append(out, e.Kind+":"+e.Detail)
	}
	return out
}

func withGPUs(n int64) func(*job.Request) {
	return func(r *job.Request) { r.GPUsPerNode = []resource.GRES{{Name: "gpu", Count: n}} }
}

func withLimit(d time.Duration) func(*job.Request) {
	return func(r *job.Request) { r.TimeLimit = &d }
}

func inPartition(p string) func(*job.Request) {
	return func(r *job.Request) { r.Partitions = []string{p} }
}
