//go:build integration

package test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/test/clustertest"
)

func waitJob(t *testing.T, cl *client.Client, id uint32, what string, ok func(api.Job) bool) api.Job {
	t.Helper()
	var j api.Job
	clustertest.Eventually(t, 15*time.Second, fmt.Sprintf("job %d %s", id, what), func() error {
		var err error
		if j, err = clustertest.JobState(cl, id); err != nil {
			return err
		}
		if !ok(j) {
			return fmt.Errorf("state %s reason %s", j.JobState, j.StateReason)
		}
		return nil
	})
	return j
}

func inState(st job.State) func(api.Job) bool {
	return func(j api.Job) bool { return j.JobState == st }
}

func mustResults(t *testing.T, r *api.JobResults, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range r.Results {
		if res.Error != nil {
			t.Fatalf("%s: %v", res.JobID, res.Error)
		}
	}
}

// TestCtldRoundTrips: submit, query, hold, release, update, requeue and
// cancel through the real loam-ctld, with fake node daemons running the
// jobs.
func TestCtldRoundTrips(t *testing.T) {
	// The requeued job may run again 6 s later (cred_expire + 1), not 121 s.
	c := clustertest.New(t, clustertest.Spec{Nodes: 2, CPUs: 4, GPUs: 2, Extra: "AuthInfo=cred_expire=5"})
	d := c.StartCtld(t)
	nodes := map[string]*clustertest.FakeNode{"n01": c.StartNode(t, d, 0), "n02": c.StartNode(t, d, 1)}
	cl, ctx := d.Client(), context.Background()

	held := clustertest.Submit(t, cl, clustertest.Job(func(r *job.Request) { r.Hold = true; r.Name = "held" }))
	waitJob(t, cl, held, "held", func(j api.Job) bool { return j.StateReason == job.ReasonJobHeldUser && j.Priority == 0 })
	r, err := cl.Update(ctx, &api.UpdateRequest{JobIDs: []string{fmt.Sprint(held)}, Update: api.JobUpdate{Name: ptr("renamed"), Comment: ptr("c")}})
	mustResults(t, r, err)
	if j, _ := clustertest.JobState(cl, held); j.Name != "renamed" || j.Comment != "c" {
		t.Errorf("update: %q %q", j.Name, j.Comment)
	}
	r, err = cl.Release(ctx, &api.ReleaseRequest{JobIDs: []string{fmt.Sprint(held)}})
	mustResults(t, r, err)
	j := waitJob(t, cl, held, "running", inState(job.Running))
	n := nodes[j.BatchHost]
	n.Launch(t, held, 10*time.Second)

	r, err = cl.Requeue(ctx, &api.RequeueRequest{JobIDs: []string{fmt.Sprint(held)}})
	mustResults(t, r, err)
	j = waitJob(t, cl, held, "running again after requeue", func(j api.Job) bool { return j.Restarts == 1 && j.JobState == job.Running })
	n = nodes[j.BatchHost]
	n.Launch(t, held, 10*time.Second)
	if err := n.End(held, job.ExitCode{}, func(e *api.JobEvent) { e.TimedOut = true; e.ExitCode = job.ExitCode{Signal: 15} }); err != nil {
		t.Fatal(err)
	}
	j = waitJob(t, cl, held, "timed out", inState(job.Timeout))
	if j.ExitCode.String() != "0:15" || j.StateReason != job.ReasonTimeLimit {
		t.Errorf("timeout: exit %s reason %s", j.ExitCode, j.StateReason)
	}

	gpu := clustertest.Submit(t, cl, clustertest.Job(func(r *job.Request) { r.GRES = gpus(2) }))
	j = waitJob(t, cl, gpu, "running", inState(job.Running))
	l := nodes[j.BatchHost].Launch(t, gpu, 10*time.Second)
	if len(l.Alloc.GPUs) != 2 {
		t.Errorf("GPU job launched with GPUs %v", l.Alloc.GPUs)
	}
	full, _ := cl.Jobs(ctx, &api.JobQuery{JobIDs: []string{fmt.Sprint(gpu)}, Detail: true})
	if len(full.Jobs) != 1 || len(full.Jobs[0].GRESDetail) != 1 || !strings.HasPrefix(full.Jobs[0].GRESDetail[0], "gpu:2(IDX:") {
		t.Errorf("gres detail %+v", full.Jobs)
	}
	r, err = cl.Cancel(ctx, &api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(gpu)}}})
	mustResults(t, r, err)
	waitJob(t, cl, gpu, "cancelled", inState(job.Cancelled))

	// The cancelled job's record is written when its node reports the end,
	// which may come after the job shows CANCELLED in the queue.
	clustertest.Eventually(t, 10*time.Second, "both jobs in accounting", func() error {
		acct, err := cl.Accounting(ctx, &api.AcctQuery{JobIDs: []string{fmt.Sprint(held), fmt.Sprint(gpu)}})
		switch {
		case err != nil:
			return err
		case len(acct.Jobs) != 2:
			return fmt.Errorf("%d records: %+v", len(acct.Jobs), acct.Jobs)
		case acct.Jobs[0].State != job.Timeout || acct.Jobs[0].Restarts != 1 || acct.Jobs[1].State != job.Cancelled:
			return fmt.Errorf("accounting states %s/%d %s", acct.Jobs[0].State, acct.Jobs[0].Restarts, acct.Jobs[1].State)
		}
		return nil
	})
}

func ptr[T any](v T) *T { return &v }

// TestCtldNodeDownAndBack: a node daemon that stops answering is marked
// DOWN after SlurmdTimeout; its job is requeued; the node returns when it
// registers again. The requeued job may run again cred_expire + 1 s
// later, as in Slurm: 6 s here, not 121 s.
func TestCtldNodeDownAndBack(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 1, SlurmdTimeout: 2, Extra: "ReturnToService=1\nAuthInfo=cred_expire=5"})
	d := c.StartCtld(t)
	n := c.StartNode(t, d, 0)
	cl, ctx := d.Client(), context.Background()
	id := clustertest.Submit(t, cl, clustertest.Job())
	waitJob(t, cl, id, "running", inState(job.Running))
	n.Launch(t, id, 10*time.Second) // the launch reached the node before it dies
	n.Stop()
	defer func() {
		if t.Failed() {
			t.Log(d.Log())
		}
	}()
	waitJob(t, cl, id, "requeued", func(j api.Job) bool { return j.JobState == job.Pending && j.Restarts == 1 })
	nodes, err := cl.Nodes(ctx, &api.NodeQuery{})
	if err != nil || nodes.Nodes[0].State != api.NodeDown {
		t.Fatalf("node after timeout: %v %+v", err, nodes)
	}
	c.StartNode(t, d, 0)
	waitJob(t, cl, id, "running again", inState(job.Running))
}

// TestCtldSigtermAndRestart: SIGTERM stops loam-ctld cleanly (exit 0, the
// socket removed); a restart brings every job back and keeps counting ids.
func TestCtldSigtermAndRestart(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 1})
	d := c.StartCtld(t)
	cl := d.Client()
	var ids []uint32
	for i := 0; i < 20; i++ {
		ids = append(ids, clustertest.Submit(t, cl, clustertest.Job(func(r *job.Request) { r.Hold = true })))
	}
	if err := d.StopErr(); err != nil {
		t.Fatalf("loam-ctld exited with %v after SIGTERM\n%s", err, d.Log())
	}
	if _, err := os.Stat(c.Socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket left behind: %v", err)
	}
	d.Restart()
	cl = d.Client()
	for _, id := range ids {
		if _, err := clustertest.JobState(cl, id); err != nil {
			t.Errorf("job %d after restart: %v", id, err)
		}
	}
	if next := clustertest.Submit(t, cl, clustertest.Job()); next != ids[len(ids)-1]+1 {
		t.Errorf("id after restart %d", next)
	}
}

// TestCtldReconfigure: scontrol reconfigure applies a valid file and
// refuses an invalid one without changing anything.
func TestCtldReconfigure(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 1})
	d := c.StartCtld(t)
	cl, ctx := d.Client(), context.Background()
	orig, _ := os.ReadFile(c.ConfPath)
	os.WriteFile(c.ConfPath, append(orig, []byte("PartitionName=bad Nodes=n77\n")...), 0o644)
	_, err := cl.Reconfigure(ctx)
	var ae *api.Error
	if !errors.As(err, &ae) || ae.Code != api.CodeInvalidConfig || !strings.Contains(ae.Detail, "n77") {
		t.Fatalf("bad reconfigure: %v", err)
	}
	os.WriteFile(c.ConfPath, append(orig, []byte("PartitionName=more Nodes=n01 State=UP\n")...), 0o644)
	if _, err := cl.Reconfigure(ctx); err != nil {
		t.Fatal(err)
	}
	parts, err := cl.Partitions(ctx)
	if err != nil || len(parts.Partitions) != 2 || parts.Partitions[1].Name != "more" {
		t.Errorf("partitions after reconfigure: %v %+v", err, parts)
	}
	if _, err := cl.Ping(ctx); err != nil {
		t.Fatal(err)
	}
}

func gpus(n int64) []resource.GRES { return []resource.GRES{{Name: "gpu", Count: n}} }

// TestCtldOverTCPWithCredential: a client that cannot reach the
// controller's Unix socket submits over TCP with a credential from the
// local node daemon's socket; the job belongs to the caller the kernel
// named, not to anyone the client claims.
func TestCtldOverTCPWithCredential(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 1})
	d := c.StartCtld(t)
	sock := clustertest.CredentialSocket(t, c)
	cl := d.TCPClient(sock)
	if cl.Local() {
		t.Fatal("TCP client uses the Unix socket")
	}
	id := clustertest.Submit(t, cl, clustertest.Job(func(r *job.Request) { r.UserID, r.UserName = 4242, "mallory" }))
	j, err := clustertest.JobState(cl, id)
	if err != nil {
		t.Fatal(err)
	}
	if j.UserID != uint32(os.Getuid()) || j.UserName == "mallory" {
		t.Errorf("job owner %d %q, want the caller %d", j.UserID, j.UserName, os.Getuid())
	}
}
