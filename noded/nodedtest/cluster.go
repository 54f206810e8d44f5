package nodedtest

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/test/clustertest"
)

// Cluster is a generated configuration for emulated nodes.
type Cluster struct {
	Dir      string // holds slurm.conf, gres.conf, loam.key
	ConfPath string
	Key      auth.Key
	Nodes    []Node
	// Ctld is the fake controller the nodes register with.
	Ctld *Ctld
}

// Node is one emulated node of a Cluster.
type Node struct {
	Name   string
	Port   int
	Addr   string // "127.0.0.1:port"
	Spool  string
	Socket string
}

// ClusterSpec shapes a generated cluster.
type ClusterSpec struct {
	Nodes    int
	CPUs     int
	MemoryMB int64
	GPUs     int
	KillWait int
}

// NewCluster starts a fake controller and writes a configuration for spec
// under t.TempDir(): nodes node1..nodeN on loopback with free ports, GPUs
// declared by count only (the daemons make fake ones), and a fresh cluster
// key. The controller stops when the test ends.
func NewCluster(t testing.TB, spec ClusterSpec) *Cluster {
	t.Helper()
	dir := t.TempDir()
	key, err := auth.GenerateKey(filepath.Join(dir, "loam.key"))
	if err != nil {
		t.Fatal(err)
	}
	ctld := NewCtld(key)
	t.Cleanup(ctld.Close)
	host, port, err := net.SplitHostPort(ctld.Addr())
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{Dir: dir, ConfPath: filepath.Join(dir, "slurm.conf"), Key: key, Ctld: ctld}
	var b strings.Builder
	fmt.Fprintf(&b, "ClusterName=test\nSlurmctldHost=localhost(%s)\nSlurmctldPort=%s\n", host, port)
	fmt.Fprintf(&b, "SlurmdSpoolDir=%s/spool/%%n\nLoamKeyFile=%s/loam.key\nLoamNodedSocket=%s/spool/%%n/noded.sock\n", dir, dir, dir)
	fmt.Fprintf(&b, "StateSaveLocation=%s/ctld\nKillWait=%d\nGresTypes=gpu\n", dir, max(spec.KillWait, 1))
	for i := 1; i <= spec.Nodes; i++ {
		n := Node{Name: fmt.Sprintf("node%d", i), Port: clustertest.FreePort(t)}
		n.Addr = fmt.Sprintf("127.0.0.1:%d", n.Port)
		n.Spool = filepath.Join(dir, "spool", n.Name)
		n.Socket = filepath.Join(n.Spool, "noded.sock")
		gres := ""
		if spec.GPUs > 0 {
			gres = fmt.Sprintf(" Gres=gpu:h100:%d", spec.GPUs)
		}
		fmt.Fprintf(&b, "NodeName=%s NodeHostname=localhost NodeAddr=127.0.0.1 Port=%d CPUs=%d RealMemory=%d%s Feature=gpu\n",
			n.Name, n.Port, max(spec.CPUs, 1), max(spec.MemoryMB, 1), gres)
		c.Nodes = append(c.Nodes, n)
	}
	fmt.Fprintf(&b, "PartitionName=normal Nodes=ALL Default=YES MaxTime=UNLIMITED State=UP\n")
	if err := os.WriteFile(c.ConfPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return c
}
