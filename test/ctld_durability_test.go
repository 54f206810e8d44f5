//go:build integration

package test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestCtldKill9Durability: loam-ctld is killed with SIGKILL while 8
// clients submit concurrently; after a restart every job id any client
// was told exists with its full request, and no id is handed out again.
func TestCtldKill9Durability(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 2})
	d := c.StartCtld(t)
	type ack struct {
		id  uint32
		req job.Request
	}
	var (
		mu    sync.Mutex
		acked []ack
		wg    sync.WaitGroup
	)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			cl := d.Client()
			for i := 0; ; i++ {
				req := clustertest.Job(func(r *job.Request) {
					r.Name = fmt.Sprintf("w%d-%d", w, i)
					r.Comment = fmt.Sprintf("client %d submission %d", w, i)
					r.Script = fmt.Sprintf("#!/bin/sh\necho %d %d\n", w, i)
					r.Hold = i%2 == 0
					r.Array = map[bool]string{true: "0-3", false: ""}[i%7 == 0]
				})
				resp, err := cl.Submit(context.Background(), &api.SubmitRequest{Job: req})
				if err != nil {
					return // the daemon is gone
				}
				mu.Lock()
				acked = append(acked, ack{resp.JobID, req})
				mu.Unlock()
			}
		}(w)
	}
	clustertest.Eventually(t, 30*time.Second, "300 acknowledged submissions", func() error {
		mu.Lock()
		defer mu.Unlock()
		if len(acked) < 300 {
			return fmt.Errorf("%d so far", len(acked))
		}
		return nil
	})
	d.Kill()
	wg.Wait()
	d.Restart()

	cl := d.Client()
	seen := map[uint32]bool{}
	var maxID uint32
	for _, a := range acked {
		if seen[a.id] {
			t.Errorf("job id %d was acknowledged twice", a.id)
		}
		seen[a.id] = true
		maxID = max(maxID, a.id)
		j, err := clustertest.JobState(cl, a.id)
		if err != nil {
			t.Errorf("acknowledged job %d lost: %v", a.id, err)
			continue
		}
		if j.Name != a.req.Name || j.Comment != a.req.Comment || j.Hold != a.req.Hold {
			t.Errorf("job %d came back as name %q comment %q hold %v, want %q %q %v", a.id, j.Name, j.Comment, j.Hold, a.req.Name, a.req.Comment, a.req.Hold)
		}
		full, err := cl.Jobs(context.Background(), &api.JobQuery{JobIDs: []string{fmt.Sprint(a.id)}})
		if err == nil && a.req.Array != "" && (len(full.Jobs) == 0 || full.Jobs[0].ArrayTaskString != "0-3") {
			t.Errorf("array job %d came back without its tasks: %+v", a.id, full.Jobs)
		}
	}
	next := clustertest.Submit(t, cl, clustertest.Job())
	if next <= maxID {
		t.Errorf("new job got id %d, not above the largest acknowledged id %d", next, maxID)
	}
	t.Logf("%d submissions acknowledged before kill -9, all back; next id %d", len(acked), next)
}
