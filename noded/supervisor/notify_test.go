package supervisor

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation"
	"github.com/loamhpc/loam/pkg/isolation/isolationtest"
)

func TestNotifyLine(t *testing.T) {
	tests := map[string]struct {
		node, msg, want string
	}{
		"words":         {"cpu001", "hello world", "slurmstepd-cpu001: error: hello world\n"},
		"empty message": {"n1", "", "slurmstepd-n1: error: \n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := notifyLine(tc.node, tc.msg); got != tc.want {
				t.Errorf("notifyLine(%q, %q) = %q, want %q", tc.node, tc.msg, got, tc.want)
			}
		})
	}
}

// announcingJob is a fake job that keeps the lines written to its
// standard error.
type announcingJob struct {
	fakeJob
	lines []string
}

func (a *announcingJob) Announce(line string) { a.lines = append(a.lines, line) }

func TestLoopNotify(t *testing.T) {
	tests := map[string]struct {
		batch       bool
		wantLines   []string
		wantUnknown bool
	}{
		"batch step writes the line": {batch: true, wantLines: []string{"slurmstepd-n1: error: hello there\n"}},
		"allocation has no file":     {batch: false, wantUnknown: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				aj := &announcingJob{}
				aj.start, aj.done = time.Now(), make(chan struct{})
				iso := &isolationtest.Isolator{}
				g, _ := iso.Create(isolation.Spec{Name: "loam/n1/job_1"})
				r := api.LaunchRequest{JobID: 1, Batch: tc.batch, TimeLimit: 3600}
				s := &Supervisor{launch: spool.Launch{Request: r, Node: "n1"}, ctl: newControl(), job: aj, group: g, log: NewLogger(t.Output())}
				s.ctl.setRunning(aj.start, 42)
				done := make(chan *api.JobEvent)
				go func() { done <- s.loop() }()
				resp := &api.NodedResponse{}
				send(s, request{notify: &api.NotifyRequest{JobID: 1, Message: "hello there"}, resp: resp})
				aj.exit(0)
				<-done
				if diff := cmp.Diff(tc.wantLines, aj.lines); diff != "" {
					t.Errorf("standard error lines (-want +got):\n%s", diff)
				}
				if resp.Unknown != tc.wantUnknown {
					t.Errorf("answer %+v, want unknown %v", resp, tc.wantUnknown)
				}
			})
		})
	}
}

func TestNotifyOverTheSocket(t *testing.T) {
	ctl, c, _ := serveTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got := make(chan request, 1)
	go func() {
		req := <-ctl.reqs
		req.resp.Unknown = true // as for an allocation
		got <- req
		close(req.done)
	}()
	resp, err := c.Notify(ctx, api.NotifyRequest{JobID: 7, Message: "hi there"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(api.NodedResponse{Unknown: true}, resp); diff != "" {
		t.Errorf("Notify answer (-want +got):\n%s", diff)
	}
	if req := <-got; req.notify == nil || *req.notify != (api.NotifyRequest{JobID: 7, Message: "hi there"}) {
		t.Errorf("notify order = %+v", req)
	}
	// Once the job ended, a notification finds nobody.
	ctl.setEnded(&api.JobEvent{Kind: api.EventEnded})
	if resp, err := c.Notify(ctx, api.NotifyRequest{JobID: 7, Message: "late"}); err != nil || !resp.Unknown {
		t.Errorf("Notify after the end = %+v, %v; want unknown", resp, err)
	}
}
