package sched_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/sched/schedtest"
)

// TestLicenses: a job starts only when its licenses are free, waits with
// Slurm's Reason=Licenses otherwise, and a higher job that cannot start
// keeps lower jobs off the licenses it needs.
func TestLicenses(t *testing.T) {
	lic := func(name string, lics ...sched.License) sched.PendingJob {
		j := schedtest.Job(name).GPUs(1).Limit("1h").Build()
		j.Licenses = lics
		return j
	}
	matlab := func(n int) sched.License { return sched.License{Name: "matlab", Count: n} }
	tests := map[string]struct {
		free    map[string]int
		pending []sched.PendingJob
		want    map[string]sched.Reason // job name to reason; "" started
	}{
		"enough for both": {
			free:    map[string]int{"matlab": 2},
			pending: []sched.PendingJob{lic("j1", matlab(1)), lic("j2", matlab(1))},
			want:    map[string]sched.Reason{"j1": "", "j2": ""},
		},
		"the third waits for Licenses": {
			free:    map[string]int{"matlab": 2},
			pending: []sched.PendingJob{lic("j1", matlab(1)), lic("j2", matlab(1)), lic("j3", matlab(1))},
			want:    map[string]sched.Reason{"j1": "", "j2": "", "j3": sched.ReasonLicenses},
		},
		"a higher job needing more keeps the rest": {
			free:    map[string]int{"matlab": 1, "wandb": 5},
			pending: []sched.PendingJob{lic("j1", matlab(2)), lic("j2", matlab(1)), lic("j3", sched.License{Name: "wandb", Count: 1}), lic("j4")},
			want:    map[string]sched.Reason{"j1": sched.ReasonLicenses, "j2": sched.ReasonLicenses, "j3": "", "j4": ""},
		},
		"a count of zero starts": {
			free:    map[string]int{"matlab": 0},
			pending: []sched.PendingJob{lic("j1", matlab(0))},
			want:    map[string]sched.Reason{"j1": ""},
		},
		"a license the cluster lacks": {
			free:    nil,
			pending: []sched.PendingJob{lic("j1", sched.License{Name: "foo", Count: 1}), lic("j2")},
			want:    map[string]sched.Reason{"j1": sched.ReasonLicenses, "j2": ""},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := schedtest.Config()
			cfg.Partitions = []sched.Partition{schedtest.Partition("normal", "n[1-3]").Build()}
			snap := &sched.Snapshot{Now: schedtest.Epoch, Nodes: schedtest.Nodes("n[1-3]").Build(),
				Pending: tc.pending, Licenses: tc.free}
			plan := sched.New(cfg).Cycle(snap)
			if err := sched.CheckPlan(&cfg, snap, plan); err != nil {
				t.Fatal(err)
			}
			got := map[string]sched.Reason{}
			names := map[sched.JobID]string{}
			for n := range tc.want {
				names[schedtest.ID(n)] = n
			}
			for _, st := range plan.Starts {
				got[names[st.Job]] = ""
			}
			for _, p := range plan.Pending {
				got[names[p.Job]] = p.Reason
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("reasons (-want +got):\n%s", diff)
			}
		})
	}
}
