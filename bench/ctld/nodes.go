package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/test/fakenode"
)

var (
	nNodes      = flag.Int("nodes", 1000, "nodes part: 8-GPU nodes, each a fake node daemon in this process")
	nodeParts   = flag.String("node-parts", "register,idle,jobs,wide,commands,restart", "what the nodes part measures")
	idleFor     = flag.Duration("idle", 60*time.Second, "nodes part: how long to watch loam-ctld with idle heartbeats")
	nJobs       = flag.Int("jobs", 20000, "nodes part: 1-GPU jobs run through the cluster")
	jobRun      = flag.Duration("job-run", time.Second, "nodes part: how long each job runs on its fake node")
	wideNodes   = flag.Int("wide", 512, "nodes part: nodes of the one --exclusive job")
	nRestart    = flag.Int("restart-jobs", 10000, "nodes part: pending jobs across the controller restart")
	slurmdTmout = flag.Int("slurmd-timeout", 300, "nodes part: SlurmdTimeout (heartbeats go every third of it, at most 30 s)")
)

// fakeCluster is N fake node daemons, listening before slurm.conf is
// written so their ports go into it.
type fakeCluster struct {
	d     *ctldDir
	names []string
	lns   []net.Listener
	nodes []*fakenode.Node

	mu sync.Mutex
	// launched is when each job's batch launch reached its node (the first
	// time: a job launched again after a requeue keeps its first).
	launched map[uint32]time.Time
	// spread counts each job's launches, one per node, and when the last
	// arrived.
	spread map[uint32]spread
	// run decides how long a job runs (the default: *jobRun).
	run func(*api.LaunchRequest) time.Duration
}

type spread struct {
	nodes int
	last  time.Time
}

// nodeName is node i's name (0-based): gpu0001...
func nodeName(i int) string { return fmt.Sprintf("gpu%04d", i+1) }

func newFakeCluster(d *ctldDir, n int) (*fakeCluster, error) {
	fc := &fakeCluster{d: d, launched: make(map[uint32]time.Time, *nJobs+*nRestart+16), spread: map[uint32]spread{}}
	for i := 0; i < n; i++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fc.close()
			return nil, fmt.Errorf("listen for node %d: %w (raise ulimit -n)", i, err)
		}
		fc.names = append(fc.names, nodeName(i))
		fc.lns = append(fc.lns, ln)
	}
	return fc, nil
}

// confBody is the nodes and partition of slurm.conf: N nodes of 8 GPUs.
func (fc *fakeCluster) confBody() string {
	ports := make([]string, len(fc.lns))
	for i, ln := range fc.lns {
		ports[i] = fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	}
	return fmt.Sprintf(`SlurmdTimeout=%d
SchedulerParameters=sched_interval=10,bf_interval=5
GresTypes=gpu
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
NodeName=%s NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=64 RealMemory=512000 Gres=gpu:8 Port=[%s] State=UNKNOWN
PartitionName=batch Nodes=ALL Default=YES MaxTime=UNLIMITED DefaultTime=01:00:00 State=UP
`, *slurmdTmout, hostlist.Compress(fc.names), strings.Join(ports, ","))
}

// start starts the node daemons, 64 registrations at a time.
func (fc *fakeCluster) start() error {
	fc.nodes = make([]*fakenode.Node, len(fc.names))
	sem := make(chan struct{}, 64)
	errs := make(chan error, len(fc.names))
	var wg sync.WaitGroup
	for i := range fc.names {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			n, err := fakenode.Start(fakenode.Options{Name: fc.names[i], Key: fc.d.key, CtldAddr: fc.d.addr(), Listener: fc.lns[i],
				CPUs: 64, RealMemory: 512000, GPUs: 8, RunFor: fc.runFor, OnLaunch: fc.onLaunch})
			if err != nil {
				errs <- err
				return
			}
			fc.nodes[i] = n
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

func (fc *fakeCluster) runFor(l *api.LaunchRequest) time.Duration {
	fc.mu.Lock()
	run := fc.run
	fc.mu.Unlock()
	if run != nil {
		return run(l)
	}
	return *jobRun
}

func (fc *fakeCluster) onLaunch(l *api.LaunchRequest) {
	now := time.Now()
	fc.mu.Lock()
	if _, ok := fc.launched[l.JobID]; !ok && l.Batch {
		fc.launched[l.JobID] = now
	}
	if len(l.Nodes) > 1 {
		s := fc.spread[l.JobID]
		fc.spread[l.JobID] = spread{nodes: s.nodes + 1, last: now}
	}
	fc.mu.Unlock()
}

// launchTime is when job id's batch launch arrived.
func (fc *fakeCluster) launchTime(id uint32) (time.Time, bool) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	t, ok := fc.launched[id]
	return t, ok
}

func (fc *fakeCluster) close() {
	for _, n := range fc.nodes {
		if n != nil {
			n.Stop()
		}
	}
	for i, ln := range fc.lns {
		if i >= len(fc.nodes) || fc.nodes[i] == nil {
			ln.Close()
		}
	}
}

// nodes runs the nodes part: loam-ctld with -nodes node daemons.
func (b *bench) nodes() error {
	d, err := newCtldDir()
	if err != nil {
		return err
	}
	defer d.remove()
	fc, err := newFakeCluster(d, *nNodes)
	if err != nil {
		return err
	}
	defer fc.close()
	if err := d.writeConf(fc.confBody()); err != nil {
		return err
	}
	b.conf = d.conf
	t0 := time.Now()
	if err := b.launch(d); err != nil {
		return err
	}
	defer b.stopCtld()
	report("nodes", fmt.Sprintf("loam-ctld start to first answer, %d nodes", *nNodes), secs(time.Since(t0)))
	want := map[string]bool{}
	for _, p := range strings.Split(*nodeParts, ",") {
		want[p] = true
	}
	steps := []struct {
		name string
		fn   func(*fakeCluster) error
	}{
		{"register", b.registerNodes}, {"idle", b.idleNodes}, {"jobs", b.jobThroughput}, {"wide", b.wideJob},
		{"commands", b.commandTimes}, {"restart", b.restartCtld},
	}
	for _, s := range steps {
		if s.name == "register" || want[s.name] { // nothing runs without nodes
			if err := s.fn(fc); err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
		}
	}
	if *hold > 0 {
		fmt.Printf("LOAM_CONF=%s: holding the cluster open for %s\n", d.conf, *hold)
		time.Sleep(*hold)
	}
	return nil
}

// registerNodes starts the node daemons and waits until sinfo's view has
// every node IDLE.
func (b *bench) registerNodes(fc *fakeCluster) error {
	t0 := time.Now()
	if err := fc.start(); err != nil {
		return err
	}
	registered := time.Since(t0)
	if err := b.waitIdle(len(fc.names), 2*time.Minute); err != nil {
		return err
	}
	report("nodes", fmt.Sprintf("%d nodes registered (requests answered)", len(fc.names)), secs(registered))
	report("nodes", fmt.Sprintf("%d nodes registered and IDLE in sinfo's view", len(fc.names)), secs(time.Since(t0)))
	return nil
}

// waitIdle waits until want nodes are IDLE (and responding).
func (b *bench) waitIdle(want int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		n, err := b.countNodes("idle")
		if err != nil {
			return err
		}
		if n >= want {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d of %d nodes idle after %s", n, want, timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// countNodes counts the nodes in states (sinfo -t; none: all) that
// respond.
func (b *bench) countNodes(states ...string) (int, error) {
	resp, err := b.cl.Nodes(context.Background(), &api.NodeQuery{States: states})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, nd := range resp.Nodes {
		responding := true
		for _, f := range nd.StateFlags {
			if f == api.FlagNotResponding {
				responding = false
			}
		}
		if responding {
			n++
		}
	}
	return n, nil
}

func secs(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }
