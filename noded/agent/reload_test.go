package agent

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/noded/nodedtest"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

func TestRestartKeys(t *testing.T) {
	start := &nodeConfig{listen: ":6818", spool: "/var/spool/n1", socket: "/run/n1.sock", ctldAddr: "c:6817",
		keyFile: "/etc/loam.key", node: slurmconf.Node{Name: "n1", Addr: "10.0.0.1", GRES: []slurmconf.GRES{{Name: "gpu", Count: 4}}}}
	tests := map[string]struct {
		edit func(*nodeConfig)
		want []string
	}{
		"nothing that needs a restart": {edit: func(*nodeConfig) {}},
		"a new spool and log file": {edit: func(n *nodeConfig) { n.spool, n.logFile = "/srv/n1", "/var/log/n1" },
			want: []string{"SlurmdSpoolDir", "SlurmdLogFile"}},
		"another controller and key": {edit: func(n *nodeConfig) { n.ctldAddr, n.keyFile = "d:6817", "/k" },
			want: []string{"SlurmctldHost", "LoamKeyFile"}},
		"the node's port and address": {edit: func(n *nodeConfig) { n.listen, n.node.Addr = ":7000", "10.0.0.2" },
			want: []string{"Port", "NodeAddr"}},
		"more GPUs": {edit: func(n *nodeConfig) { n.node.GRES = []slurmconf.GRES{{Name: "gpu", Count: 8}} },
			want: []string{"Gres"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			next := *start
			next.node.GRES = append([]slurmconf.GRES(nil), start.node.GRES...)
			tc.edit(&next)
			if diff := cmp.Diff(tc.want, restartKeys(start, &next)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestChangedKeys(t *testing.T) {
	base := func() *settings {
		return &settings{cfg: &slurmconf.Config{KillWait: 30 * time.Second},
			node: slurmconf.Node{Name: "n1", CPUs: 8, RealMemory: 1000, Features: []string{"a"}}}
	}
	tests := map[string]struct {
		edit func(*settings)
		want []string
	}{
		"the same file":      {edit: func(*settings) {}},
		"new node scripts":   {edit: func(s *settings) { s.cfg.NodeProlog.Prolog, s.cfg.NodeProlog.Epilog = "/p", "/e" }, want: []string{"Prolog", "Epilog"}},
		"prolog flags":       {edit: func(s *settings) { s.cfg.NodeProlog.Flags = slurmconf.PrologSerial }, want: []string{"PrologFlags"}},
		"task scripts":       {edit: func(s *settings) { s.cfg.Scripts.TaskProlog = "/tp" }, want: []string{"TaskProlog"}},
		"health check":       {edit: func(s *settings) { s.cfg.Scripts.HealthCheckInterval = time.Minute }, want: []string{"HealthCheckInterval"}},
		"debug and killwait": {edit: func(s *settings) { s.cfg.SlurmdDebug, s.cfg.KillWait = "debug", time.Second }, want: []string{"SlurmdDebug", "KillWait"}},
		"a bigger node":      {edit: func(s *settings) { s.node.CPUs, s.node.RealMemory = 16, 2000 }, want: []string{"CPUs", "RealMemory"}},
		"features and spec":  {edit: func(s *settings) { s.node.Features, s.node.SpecCPUs = []string{"b"}, []int{0} }, want: []string{"Features", "CPUSpecList"}},
		"unkillable steps": {edit: func(s *settings) { s.cfg.Unkillable.Timeout, s.cfg.Unkillable.Program = time.Minute, "/u" },
			want: []string{"UnkillableStepTimeout", "UnkillableStepProgram"}},
		"temporary disk": {edit: func(s *settings) { s.cfg.TmpFS, s.node.TmpDisk = "/scratch", 100 }, want: []string{"TmpFS", "TmpDisk"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			old, next := base(), base()
			tc.edit(next)
			if diff := cmp.Diff(tc.want, changedKeys(old, next)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestReloadStateFollow(t *testing.T) {
	tests := map[string]struct {
		seen []string
		want []bool
	}{
		"the first generation is taken as is": {seen: []string{"a.0"}, want: []bool{false}},
		"the same generation again":           {seen: []string{"a.0", "a.0"}, want: []bool{false, false}},
		"a reconfigure moves it":              {seen: []string{"a.0", "a.1", "a.1"}, want: []bool{false, true, false}},
		"an old controller sends none":        {seen: []string{"a.0", "", "a.0"}, want: []bool{false, false, false}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var r reloadState
			var got []bool
			for _, g := range tc.seen {
				got = append(got, r.follow(g))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestCPUSetReshape(t *testing.T) {
	c := newCPUSet(4, []int{0, 1})
	c.reserve([]int{0})
	if _, err := c.take(1, "2"); err != nil {
		t.Fatal(err)
	}
	c.reshape(8, []int{7})
	want := []bool{false, false, true, false, false, false, false, true}
	if diff := cmp.Diff(want, c.used); diff != "" {
		t.Errorf("grown to 8, CPU 7 set aside: (-want +got)\n%s", diff)
	}
	c.reshape(2, nil)
	if diff := cmp.Diff([]bool{false, false}, c.used); diff != "" {
		t.Errorf("shrunk to 2: (-want +got)\n%s", diff)
	}
	c.release([]int{2}) // the job on CPU 2 ends: nothing to free any more
}

// appendConf adds lines to the cluster's slurm.conf.
func appendConf(t *testing.T, cl *nodedtest.Cluster, lines string) {
	t.Helper()
	f, err := os.OpenFile(cl.ConfPath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(lines); err != nil {
		t.Fatal(err)
	}
}

// TestReloadAppliesAndRegisters: a reread slurm.conf is in force for what
// comes next (node and task scripts, KillWait) and the daemon registers
// again, as slurmd does.
func TestReloadAppliesAndRegisters(t *testing.T) {
	cl := newCluster(t)
	h := startAgent(t, cl)
	regs := cl.Ctld.NumRegisters()
	appendConf(t, cl, "Prolog=/etc/loam/prolog\nTaskProlog=/etc/loam/task\nPrologFlags=Serial\nKillWait=7\n")
	if err := h.agent.Reload("test"); err != nil {
		t.Fatal(err)
	}
	conf := h.agent.conf()
	got := []string{conf.NodeProlog.Prolog, conf.Scripts.TaskProlog, conf.KillWait.String()}
	if diff := cmp.Diff([]string{"/etc/loam/prolog", "/etc/loam/task", "7s"}, got); diff != "" {
		t.Errorf("configuration in force: (-want +got)\n%s", diff)
	}
	prolog, _ := nodeScripts(conf.NodeProlog, h.agent.spool.Root)
	if prolog.Path != "/etc/loam/prolog" || prolog.SerialLock == "" {
		t.Errorf("a new job's prolog: %+v", prolog)
	}
	if !cl.Ctld.Until(wait, func(c *nodedtest.Ctld) bool { return c.NumRegisters() > regs }) {
		t.Error("the daemon did not register again after the reconfigure")
	}
}

// TestReloadBadFileKeepsSettings: a file that does not load changes
// nothing; the error names the file and line; the daemon goes on, and a
// mended file is taken at the next reconfigure.
func TestReloadBadFileKeepsSettings(t *testing.T) {
	cl := newCluster(t)
	h := startAgent(t, cl)
	before := h.agent.conf()
	lines := strings.Count(readFile(t, cl.ConfPath), "\n")
	appendConf(t, cl, "TaskProlog=/etc/loam/task\nKillWait=soon\n")
	err := h.agent.Reload("test")
	if err == nil {
		t.Fatal("a bad KillWait was taken")
	}
	if want := fmt.Sprintf("%s:%d", cl.ConfPath, lines+2); !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name %s", err, want)
	}
	if h.agent.conf() != before {
		t.Error("a refused file changed the configuration in force")
	}
	select {
	case err := <-h.done:
		t.Fatalf("the daemon stopped: %v", err)
	default:
	}
	data := strings.Replace(readFile(t, cl.ConfPath), "KillWait=soon\n", "", 1)
	if err := os.WriteFile(cl.ConfPath, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := h.agent.Reload("test"); err != nil {
		t.Fatal(err)
	}
	if got := h.agent.conf().Scripts.TaskProlog; got != "/etc/loam/task" {
		t.Errorf("TaskProlog after the mended file: %q", got)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
