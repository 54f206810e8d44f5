package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/loamhpc/loam/ctld/controller"
	"github.com/loamhpc/loam/ctld/controller/schedengine"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/sim"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/store"
)

// liveOutcome is what the live system did with one job inside the window.
type liveOutcome struct {
	id        uint32
	start     time.Duration // first start in trace time; -1: none
	preempted int
}

// replay is one live run: the controller, its clock and the node daemons.
type replay struct {
	dir    string
	scale  float64
	epoch  time.Time // trace second 0 on the controller's clock
	real0  time.Time
	cl     *client.Client
	nodeds []*exec.Cmd
	ids    map[uint32]string // job id -> trace job id
	out    map[string]*liveOutcome
}

// clock is the controller's time: the wall clock sped up scale times from
// the start of the replay.
func (r *replay) clock() time.Time {
	return r.epoch.Add(time.Duration(float64(time.Since(r.real0)) * r.scale))
}

// traceTime converts a controller time to trace time.
func (r *replay) traceTime(t time.Time) time.Duration { return t.Sub(r.epoch) }

// replayLive runs the jobs through loam-ctld and real node daemons until
// span of trace time has passed.
func replayLive(jobs []sim.Job, conf *slurmconf.Config, confPath, bin string, span time.Duration, scale float64, keep bool) (map[string]*liveOutcome, error) {
	dir, err := os.MkdirTemp("", "loam-live")
	if err != nil {
		return nil, err
	}
	if keep {
		fmt.Println("state and logs in", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	r := &replay{dir: dir, scale: scale, ids: map[uint32]string{}, out: map[string]*liveOutcome{}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop, err := r.start(ctx, conf, confPath, bin)
	if err != nil {
		return nil, err
	}
	defer stop()
	if err := r.submitAll(ctx, jobs, span); err != nil {
		return nil, err
	}
	return r.out, nil
}

// start writes the runtime configuration, starts loam-ctld in this
// process and one loam-noded per node, and waits until every node is up.
func (r *replay) start(ctx context.Context, conf *slurmconf.Config, confPath, bin string) (func(), error) {
	key, err := auth.GenerateKey(filepath.Join(r.dir, "loam.key"))
	if err != nil {
		return nil, err
	}
	path, err := writeRuntimeConf(r.dir, conf, confPath)
	if err != nil {
		return nil, err
	}
	rc, err := controller.LoadConfig(path)
	if err != nil {
		return nil, err
	}
	logf, err := os.Create(filepath.Join(r.dir, "ctld.log"))
	if err != nil {
		return nil, err
	}
	log := logrus.New()
	log.SetOutput(logf)
	log.SetLevel(logrus.InfoLevel)
	r.real0 = time.Now()
	r.epoch = r.real0.Truncate(time.Second)
	ctl, err := controller.New(controller.Options{ConfPath: path, Config: rc, Log: logrus.NewEntry(log),
		Engine: schedengine.New, Key: key, Sync: store.SyncNormal, Now: r.clock})
	if err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- ctl.Run(ctx) }()
	select {
	case <-ctl.Ready():
	case err := <-done:
		return nil, fmt.Errorf("loam-ctld: %w", err)
	}
	if r.cl, err = client.New(client.Options{CtldSocket: rc.LoamCtldSocket, Timeout: time.Minute}); err != nil {
		return nil, err
	}
	for _, n := range rc.Nodes {
		cmd := exec.Command(filepath.Join(bin, "loam-noded"), "-N", n.Name, "-f", path, "--emulate",
			"--cgroup-root", fmt.Sprintf("loam-live/%d/%s", os.Getpid(), n.Name), "--log-format", "text")
		nl, _ := os.Create(filepath.Join(r.dir, n.Name+".log"))
		cmd.Stdout, cmd.Stderr = nl, nl
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		r.nodeds = append(r.nodeds, cmd)
	}
	stop := func() {
		r.cl.Cancel(context.Background(), &api.CancelRequest{Filter: api.JobFilter{Users: []string{replayUser}}})
		time.Sleep(2 * time.Second) // let the daemons kill the jobs
		for _, c := range r.nodeds {
			c.Process.Signal(syscall.SIGTERM)
			c.Wait()
		}
		removeCgroups(fmt.Sprintf("loam-live/%d", os.Getpid()))
		logf.Close()
	}
	if err := r.waitNodes(len(rc.Nodes)); err != nil {
		stop()
		return nil, err
	}
	return stop, nil
}

// waitNodes waits until n nodes are up.
func (r *replay) waitNodes(n int) error {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		resp, err := r.cl.Nodes(context.Background(), &api.NodeQuery{})
		up := 0
		if err == nil {
			for _, nd := range resp.Nodes {
				if !strings.Contains(nd.State, "DOWN") && !strings.Contains(nd.State, "UNKNOWN") {
					up++
				}
			}
		}
		if up == n {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("nodes not up after a minute (logs in %s)", r.dir)
}

// writeRuntimeConf writes the replayed cluster's configuration for live
// daemons on this host: the original slurm.conf without its node lines,
// the nodes again with local addresses and ports, the daemons' paths, and
// timers on the compressed clock; tenants.conf with the replay's user.
func writeRuntimeConf(dir string, conf *slurmconf.Config, confPath string) (string, error) {
	fsys, err := replayFS(confPath, "")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, line := range joinContinuations(string(fsys["slurm.conf"].Data)) {
		key := strings.ToLower(strings.SplitN(strings.TrimSpace(line), "=", 2)[0])
		switch key {
		case "nodename", "clustername", "slurmctldhost", "slurmctldport", "statesavelocation", "slurmdspooldir",
			"slurmuser", "slurmdtimeout", "minjobage", "killwait", "schedulerparameters", "mailprog":
			continue
		}
		b.WriteString(line + "\n")
	}
	port, err := freePort()
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "ClusterName=live\nSlurmctldHost=localhost(127.0.0.1)\nSlurmctldPort=%d\n", port)
	fmt.Fprintf(&b, "StateSaveLocation=%[1]s/state\nSlurmdSpoolDir=%[1]s/noded/%%n\nLoamKeyFile=%[1]s/loam.key\n", dir)
	fmt.Fprintf(&b, "LoamCtldSocket=%[1]s/ctld.sock\nLoamNodedSocket=%[1]s/noded/%%n/noded.sock\n", dir)
	// Timers run on the compressed clock: a day of it is a few minutes.
	b.WriteString("SlurmUser=root\nMailProg=/bin/true\nKillWait=2\nSlurmdTimeout=86400\nMinJobAge=864000\n")
	fmt.Fprintf(&b, "SchedulerParameters=sched_interval=1,bf_interval=1,bf_window=%d\n", int(conf.SchedulerParameters.BfWindow/time.Minute))
	gres := "AutoDetect=off\n"
	for _, n := range conf.Nodes {
		p, err := freePort()
		if err != nil {
			return "", err
		}
		g := capGPUs(n)
		fmt.Fprintf(&b, "NodeName=%s NodeHostname=localhost NodeAddr=127.0.0.1 Port=%d CPUs=%d RealMemory=%d State=UNKNOWN", n.Name, p, n.CPUs, n.RealMemory)
		if g > 0 {
			fmt.Fprintf(&b, " Gres=gpu:%d", g)
			gres += fmt.Sprintf("NodeName=%s Name=gpu Count=%d\n", n.Name, g)
		}
		if len(n.Features) > 0 {
			b.WriteString(" Feature=" + strings.Join(n.Features, ","))
		}
		b.WriteString("\n")
	}
	files := map[string]string{"slurm.conf": b.String(), "gres.conf": gres}
	if t, ok := fsys[slurmconf.TenantsFile]; ok {
		files[slurmconf.TenantsFile] = string(t.Data)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, "slurm.conf"), nil
}

func capGPUs(n slurmconf.Node) int {
	g := 0
	for _, x := range n.GRES {
		if x.Name == "gpu" {
			g += int(x.Count)
		}
	}
	return g
}

// joinContinuations joins lines ending in a backslash.
func joinContinuations(text string) []string {
	var out []string
	cur := ""
	for _, l := range strings.Split(text, "\n") {
		if strings.HasSuffix(l, "\\") {
			cur += strings.TrimSuffix(l, "\\") + " "
			continue
		}
		out = append(out, cur+l)
		cur = ""
	}
	return out
}

// removeCgroups removes the replay's (empty) cgroup directories under
// every mounted hierarchy, deepest first.
func removeCgroups(rel string) {
	roots, _ := filepath.Glob("/sys/fs/cgroup/*/" + rel)
	if d := "/sys/fs/cgroup/" + rel; dirExists(d) {
		roots = append(roots, d)
	}
	for _, root := range roots {
		var dirs []string
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
		for i := len(dirs) - 1; i >= 0; i-- {
			os.Remove(dirs[i])
		}
		os.Remove(filepath.Dir(root)) // loam-live itself, when now empty
	}
}

func dirExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// request turns a prepared trace job into the submission the simulator's
// shape stands for (cluster.ShapeOf reads it back to the same shape): its
// script sleeps the run time, compressed.
func (r *replay) request(j *sim.Job, work string) job.Request {
	s := j.Spec.Shape
	secs := j.Run.Seconds() / r.scale
	if j.NeverRan {
		secs = 1e6 // runs until its user cancels it
	}
	lim := j.Spec.Limit
	req := job.Request{Name: j.Rec.JobID, Account: j.Spec.Tenant, Partitions: j.Spec.Partitions,
		Script: fmt.Sprintf("#!/bin/sh\nexec sleep %.3f\n", secs), WorkDir: work, StdOut: "/dev/null",
		Environment: []string{"PATH=/usr/bin:/bin"}, TimeLimit: &lim}
	yes := true
	req.Requeue = &yes
	if s.Nodes > 0 {
		req.MinNodes, req.NodesSet = s.Nodes, true
	}
	switch {
	case s.GPUsPerNode > 0:
		req.GPUsPerNode = []resource.GRES{{Name: "gpu", Count: int64(s.GPUsPerNode)}}
	case s.GPUs > 0:
		req.GPUs = []resource.GRES{{Name: "gpu", Count: int64(s.GPUs)}}
	}
	if s.CPUsPerNode > 0 {
		req.NTasksPerNode = s.CPUsPerNode
	} else if s.CPUs > 1 {
		req.NTasks = s.CPUs
	}
	return req
}

// submitAll submits each job at its trace time, cancels the rows that
// never ran at their recorded cancel time, and watches the jobs until the
// window ends.
func (r *replay) submitAll(ctx context.Context, jobs []sim.Job, span time.Duration) error {
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(jobs[a].Rec.Submit - jobs[b].Rec.Submit) })
	cancels := map[string]time.Duration{}
	next := 0
	for {
		now := r.traceTime(r.clock())
		for next < len(order) && jobs[order[next]].Rec.Submit <= now {
			j := &jobs[order[next]]
			resp, err := r.cl.Submit(ctx, &api.SubmitRequest{Job: r.request(j, r.dir)})
			if err != nil {
				return fmt.Errorf("submit %s: %w", j.Rec.JobID, err)
			}
			r.ids[resp.JobID] = j.Rec.JobID
			r.out[j.Rec.JobID] = &liveOutcome{id: resp.JobID, start: -1}
			if j.NeverRan {
				cancels[j.Rec.JobID] = j.CancelAt
			}
			next++
		}
		r.cancelDue(ctx, cancels, now)
		if err := r.observe(ctx, span); err != nil {
			return err
		}
		if now >= span {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cancelDue cancels the never-run rows whose recorded cancel time came.
func (r *replay) cancelDue(ctx context.Context, cancels map[string]time.Duration, now time.Duration) {
	for name, at := range cancels {
		if at > now {
			continue
		}
		delete(cancels, name)
		id := fmt.Sprint(r.out[name].id)
		r.cl.Cancel(ctx, &api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{id}}})
	}
}

// observe records each job's first start and preemptions so far.
func (r *replay) observe(ctx context.Context, span time.Duration) error {
	resp, err := r.cl.Jobs(ctx, &api.JobQuery{})
	if err != nil {
		return err
	}
	for _, j := range resp.Jobs {
		name, ok := r.ids[j.JobID]
		if !ok {
			continue
		}
		o := r.out[name]
		if j.StartTime != 0 && j.JobState != job.Pending {
			if st := r.traceTime(time.Unix(j.StartTime, 0)); st < span && (o.start < 0 || st < o.start) {
				o.start = st
			}
		}
		o.preempted = max(o.preempted, j.Preemptions)
	}
	return nil
}
