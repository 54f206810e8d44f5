package sched_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/sched/schedtest"
)

// TestUserExclusive replays the peer's iexcl partition (ExclusiveUser=YES
// over cpu002): two jobs of s18i1 share the node, s18i2's waits for
// Resources, and so does a job of another partition by another user.
func TestUserExclusive(t *testing.T) {
	excl := func(b *schedtest.JobBuilder) sched.PendingJob {
		j := b.GPUs(0).Build()
		j.Shape.ExclusiveUser = true
		return j
	}
	tests := map[string]struct {
		running []sched.RunningJob
		pending []sched.PendingJob
		want    []sched.JobID // started
	}{
		"the same user shares the node": {
			running: []sched.RunningJob{userExclRunning("j9", "s18i1")},
			pending: []sched.PendingJob{excl(schedtest.Job("j1").User("s18i1").CPUs(1))},
			want:    []sched.JobID{1},
		},
		"another user's job waits": {
			running: []sched.RunningJob{userExclRunning("j9", "s18i1")},
			pending: []sched.PendingJob{excl(schedtest.Job("j2").User("s18i2").CPUs(1))},
		},
		"a plain job of another user waits": {
			running: []sched.RunningJob{userExclRunning("j9", "s18i1")},
			pending: []sched.PendingJob{schedtest.Job("j3").User("root").GPUs(0).CPUs(1).Build()},
		},
		"a user-exclusive job does not join another user's job": {
			running: []sched.RunningJob{schedtest.Running("j9").User("root").On("cpu002", 1, 0, nil).Build()},
			pending: []sched.PendingJob{excl(schedtest.Job("j4").User("s18i1").CPUs(1))},
		},
		"of two users starting together only the first": {
			pending: []sched.PendingJob{
				excl(schedtest.Job("j5").User("s18i1").CPUs(1)),
				excl(schedtest.Job("j6").User("s18i2").CPUs(1)),
				excl(schedtest.Job("j7").User("s18i1").CPUs(1)),
			},
			want: []sched.JobID{5, 7},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := schedtest.Config()
			cfg.Partitions = []sched.Partition{schedtest.Partition("normal", "cpu002").Build()}
			snap := &sched.Snapshot{Now: schedtest.Epoch, Nodes: schedtest.Nodes("cpu002").GPUs(0).CPUs(32).Build(),
				Running: tc.running, Pending: tc.pending}
			var got []sched.JobID
			for _, s := range sched.New(cfg).Cycle(snap).Starts {
				got = append(got, s.Job)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("started (-want +got):\n%s", diff)
			}
		})
	}
}

func userExclRunning(name, user string) sched.RunningJob {
	r := schedtest.Running(name).User(user).On("cpu002", 1, 0, nil).Build()
	r.ExclusiveUser = true
	return r
}
