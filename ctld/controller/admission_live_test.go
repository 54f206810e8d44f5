package controller

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

const mountConf = `ClusterName=t
SlurmctldHost=localhost
SlurmUser=root
NodeName=n[1-2] CPUs=8 RealMemory=8000
PartitionName=data Nodes=ALL Default=YES RequiredMounts=/data,/scratch State=UP
PartitionName=plain Nodes=ALL State=UP
`

// TestCheckMounts: a partition whose required storage no registered node
// reports mounted refuses the job; another candidate partition takes it;
// before any node has reported nothing is refused; a node must have
// every required mount.
func TestCheckMounts(t *testing.T) {
	conf, err := slurmconf.Load(fstest.MapFS{"slurm.conf": {Data: []byte(mountConf)}}, "slurm.conf")
	if err == nil {
		err = conf.Validate()
	}
	if err != nil {
		t.Fatal(err)
	}
	cs, err := newConfState(conf, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	c := &Controller{nodes: map[string]*nodeRec{"n1": {name: "n1"}, "n2": {name: "n2"}}}
	c.conf.Store(cs)
	check := func(parts ...string) (*api.Error, []string) {
		a := &admitted{req: &job.Request{}, partitions: parts}
		err := c.checkMounts(a)
		return err, a.partitions
	}
	if err, _ := check("data"); err != nil {
		t.Errorf("no node reported yet: %v", err)
	}
	c.nodes["n1"].report = &api.RegisterRequest{Mounts: []string{"/", "/data"}}
	if err, _ := check("data"); err == nil || err.Code != api.CodeMountMissing {
		t.Errorf("/scratch mounted nowhere: %v", err)
	}
	if err, parts := check("data", "plain"); err != nil || len(parts) != 1 || parts[0] != "plain" {
		t.Errorf("with another partition: %v %v", err, parts)
	}
	c.nodes["n2"].report = &api.RegisterRequest{Mounts: []string{"/scratch/"}}
	if err, _ := check("data"); err == nil {
		t.Errorf("each mount on some node, both on none: accepted")
	}
	c.nodes["n2"].report = &api.RegisterRequest{Mounts: []string{"/data", "/scratch/"}}
	if err, _ := check("data"); err != nil {
		t.Errorf("n2 has both: %v", err)
	}
}
