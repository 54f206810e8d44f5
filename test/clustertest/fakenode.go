package clustertest

import (
	"fmt"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/test/fakenode"
)

// FakeNode is a node daemon that speaks the protocol without running
// anything (package fakenode): it records launches, signals and
// terminations, answers them like loam-noded, and reports job ends when
// the test says so (or at once for terminations, AutoEnd). Its heartbeats
// go every half second, so tests see a node's silence or return quickly.
type FakeNode struct {
	*fakenode.Node
	t testing.TB
}

// fakeHeartbeat is the fake nodes' heartbeat interval in tests.
const fakeHeartbeat = 500 * time.Millisecond

// StartNode starts fake node i of the cluster and registers it with d.
func (c *Cluster) StartNode(t testing.TB, d *Ctld, i int) *FakeNode {
	t.Helper()
	name := NodeName(i)
	return NewFakeNode(t, c.Key, d.Addr(), name, fmt.Sprintf("127.0.0.1:%d", c.NodePorts[name]))
}

// NewFakeNode starts a fake node daemon called name listening on addr and
// registers it with the controller at ctldAddr.
func NewFakeNode(t testing.TB, key auth.Key, ctldAddr, name, addr string) *FakeNode {
	t.Helper()
	n, err := fakenode.Start(fakenode.Options{Name: name, Key: key, CtldAddr: ctldAddr, Addr: addr, Heartbeat: fakeHeartbeat})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Stop)
	return &FakeNode{Node: n, t: t}
}

// Register (re)sends the node's registration with the jobs it runs.
func (n *FakeNode) Register() *api.RegisterResponse {
	n.t.Helper()
	resp, err := n.Node.Register()
	if err != nil {
		n.t.Fatalf("register %s: %v", n.Name, err)
	}
	return resp
}

// Launch returns the launch of job id this node received, waiting up to
// timeout.
func (n *FakeNode) Launch(t testing.TB, id uint32, timeout time.Duration) api.LaunchRequest {
	t.Helper()
	var got api.LaunchRequest
	Eventually(t, timeout, fmt.Sprintf("launch of job %d on %s", id, n.Name), func() error {
		launches := n.Launches()
		for _, l := range launches {
			if l.JobID == id {
				got = l
				return nil
			}
		}
		return fmt.Errorf("%d launches, none of job %d", len(launches), id)
	})
	return got
}
