package clustertest

import (
	"context"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
)

// Job returns a minimal valid batch request: a shell script that exits 0,
// run in the temporary directory.
func Job(mods ...func(*job.Request)) job.Request {
	r := job.Request{Name: "wrap", Script: "#!/bin/sh\ntrue\n", WorkDir: "/tmp"}
	for _, m := range mods {
		m(&r)
	}
	return r
}

// Submit submits req and fails the test on error.
func Submit(t testing.TB, cl *client.Client, req job.Request) uint32 {
	t.Helper()
	resp, err := cl.Submit(context.Background(), &api.SubmitRequest{Job: req})
	if err != nil {
		t.Fatalf("submit: %v", err)
	}
	return resp.JobID
}
