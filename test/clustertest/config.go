package clustertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/test/loopback"
)

// Spec describes the cluster to generate.
type Spec struct {
	// Nodes emulated nodes n01..nNN with CPUs, MemMB and GPUs each.
	Nodes int
	CPUs  int
	MemMB int64
	GPUs  int
	// Extra lines appended to slurm.conf (timers, partitions...). Without
	// a PartitionName line, one partition "normal" (Default) holds all
	// nodes.
	Extra string
	// NodeExtra is appended to the node line (CoreSpecCount=2 ...).
	NodeExtra string
	// PerNode, when set, gives each node a line of its own with
	// PerNode[i] appended to node i's (TmpDisk=100 ...).
	PerNode []string
	// SlurmdTimeout in seconds (default 300).
	SlurmdTimeout int
	// MinJobAge in seconds (default 300).
	MinJobAge int
	// Topology, when set, is written as topology.conf beside slurm.conf
	// (Extra then needs TopologyPlugin=topology/tree to use it).
	Topology string
}

// Cluster is a generated configuration in a temporary directory.
type Cluster struct {
	Dir      string // everything lives here
	ConfPath string
	KeyPath  string
	Socket   string // loam-ctld's Unix socket
	Port     int    // loam-ctld's TCP port
	Key      auth.Key
	Spec     Spec
	// NodePorts are the configured ports of the nodes, by name.
	NodePorts map[string]int
}

// NodeName is the name of node i (0-based).
func NodeName(i int) string { return fmt.Sprintf("n%02d", i+1) }

// New writes slurm.conf and the cluster key for spec.
func New(t testing.TB, spec Spec) *Cluster {
	t.Helper()
	if spec.Nodes == 0 {
		spec.Nodes = 2
	}
	if spec.CPUs == 0 {
		spec.CPUs = 8
	}
	if spec.MemMB == 0 {
		spec.MemMB = 16000
	}
	if spec.SlurmdTimeout == 0 {
		spec.SlurmdTimeout = 300
	}
	if spec.MinJobAge == 0 {
		spec.MinJobAge = 300
	}
	dir := shortTempDir(t)
	c := &Cluster{Dir: dir, ConfPath: filepath.Join(dir, "slurm.conf"), KeyPath: filepath.Join(dir, "loam.key"),
		Socket: filepath.Join(dir, "ctld.sock"), Port: FreePort(t), Spec: spec, NodePorts: map[string]int{}}
	key, err := auth.GenerateKey(c.KeyPath)
	if err != nil {
		t.Fatal(err)
	}
	c.Key = key
	for i := 0; i < spec.Nodes; i++ {
		c.NodePorts[NodeName(i)] = FreePort(t)
	}
	if err := os.WriteFile(c.ConfPath, []byte(c.slurmConf()), 0o644); err != nil {
		t.Fatal(err)
	}
	if spec.Topology != "" {
		if err := os.WriteFile(filepath.Join(dir, "topology.conf"), []byte(spec.Topology), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if spec.GPUs > 0 {
		gres := fmt.Sprintf("AutoDetect=off\nNodeName=n[01-%02d] Name=gpu Count=%d\n", spec.Nodes, spec.GPUs)
		if err := os.WriteFile(filepath.Join(dir, "gres.conf"), []byte(gres), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// shortTempDir is a temporary directory with a short path: Unix socket
// paths are limited to 107 bytes.
func shortTempDir(t testing.TB) string {
	dir, err := os.MkdirTemp("", "loam")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func (c *Cluster) slurmConf() string {
	s := c.Spec
	var b strings.Builder
	fmt.Fprintf(&b, "ClusterName=test\nSlurmctldHost=localhost(127.0.0.1)\nSlurmctldPort=%d\n", c.Port)
	fmt.Fprintf(&b, "StateSaveLocation=%s/state\nSlurmdSpoolDir=%s/noded/%%n\n", c.Dir, c.Dir)
	fmt.Fprintf(&b, "LoamKeyFile=%s\nLoamCtldSocket=%s\nLoamNodedSocket=%s/noded/%%n/noded.sock\n", c.KeyPath, c.Socket, c.Dir)
	fmt.Fprintf(&b, "SlurmUser=root\nMailProg=/bin/true\nKillWait=2\nSlurmdTimeout=%d\nMinJobAge=%d\n", s.SlurmdTimeout, s.MinJobAge)
	b.WriteString("MaxJobCount=200000\nMaxArraySize=10001\nSchedulerParameters=sched_interval=2,bf_interval=1\n")
	b.WriteString("SelectType=select/cons_tres\nSelectTypeParameters=CR_Core_Memory\nDefMemPerCPU=100\n")
	b.WriteString("PriorityType=priority/multifactor\nPriorityWeightJobSize=1000\n")
	nodeLine := fmt.Sprintf("NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=%d RealMemory=%d", s.CPUs, s.MemMB)
	if s.GPUs > 0 {
		b.WriteString("GresTypes=gpu\n")
		nodeLine += fmt.Sprintf(" Gres=gpu:%d", s.GPUs)
	}
	var ports []string
	for i := 0; i < s.Nodes; i++ {
		ports = append(ports, fmt.Sprint(c.NodePorts[NodeName(i)]))
	}
	if s.NodeExtra != "" {
		nodeLine += " " + s.NodeExtra
	}
	if len(s.PerNode) == 0 {
		fmt.Fprintf(&b, "NodeName=n[01-%02d] %s Port=[%s] State=UNKNOWN\n", s.Nodes, nodeLine, strings.Join(ports, ","))
	}
	for i := 0; i < s.Nodes && len(s.PerNode) > 0; i++ {
		var extra string
		if i < len(s.PerNode) {
			extra = " " + s.PerNode[i]
		}
		fmt.Fprintf(&b, "NodeName=%s %s%s Port=%s State=UNKNOWN\n", NodeName(i), nodeLine, extra, ports[i])
	}
	if !strings.Contains(s.Extra, "PartitionName=") {
		fmt.Fprintf(&b, "PartitionName=normal Nodes=ALL Default=YES MaxTime=UNLIMITED DefaultTime=01:00:00 State=UP\n")
	}
	b.WriteString(s.Extra + "\n")
	return b.String()
}

// FreePort returns a TCP port free on loopback now, for a daemon that
// binds it later (loopback.FreePort).
func FreePort(t testing.TB) int {
	t.Helper()
	p, err := loopback.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return p
}
