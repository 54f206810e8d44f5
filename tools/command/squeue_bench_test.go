package command

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// benchJobs are n pending jobs in three partitions, as a busy queue.
func benchJobs(n int) []api.Job {
	jobs := make([]api.Job, n)
	parts := []string{"normal", "batch", "urgent"}
	for i := range jobs {
		jobs[i] = api.Job{JobID: uint32(i + 1), Name: fmt.Sprintf("job%d", i%97), UserID: 1000, UserName: "alice",
			Partition: parts[i%3], JobState: job.Pending, StateReason: job.ReasonPriority, Priority: int64(i % 50),
			NodeCount: 1 + i%4, TimeLimit: 3600, SubmitTime: 1795940000 + int64(i)}
	}
	return jobs
}

// BenchmarkSqueue measures squeue's own work on 10,000 and 100,000 pending
// jobs: the table round trip through the fake controller (encode, decode),
// filtering, Slurm's sort and formatting.
func BenchmarkSqueue(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			f := &fakeController{now: 1795950000, jobs: benchJobs(n)}
			te := newTestEnv(f, 1795950000)
			te.Stdout = io.Discard
			for i := 0; i < b.N; i++ {
				if code := Squeue(context.Background(), te.Env, nil); code != 0 {
					b.Fatal(code)
				}
			}
		})
	}
}

// tableCache answers JobTable from one encoding made beforehand, so that
// BenchmarkSqueueClient measures only what squeue itself does.
type tableCache struct {
	*fakeController
	data []byte
}

func (c *tableCache) JobTable(_ context.Context, q *api.JobQuery) (*api.JobTable, error) {
	if c.data == nil {
		w, _ := api.NewTableWriter(q.Fields, c.now)
		sel, missing := c.selected(q)
		for _, j := range sel {
			w.Add(j)
		}
		c.data = w.Finish(missing)
	}
	return api.DecodeJobTable(c.data)
}

func BenchmarkSqueueClient(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(400)) // as Main sets it
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			c := &tableCache{fakeController: &fakeController{now: 1795950000, jobs: benchJobs(n)}}
			te := newTestEnv(c.fakeController, 1795950000)
			te.Dial = func(context.Context) (Controller, error) { return c, nil }
			te.Stdout = io.Discard
			for i := 0; i < b.N; i++ {
				if code := Squeue(context.Background(), te.Env, nil); code != 0 {
					b.Fatal(code)
				}
			}
		})
	}
}
