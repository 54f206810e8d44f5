package agent

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
)

// TestEventsCarryTheRun: the start and end events of a job's run name the
// run (its restart count), taken from the daemon's entry or, for a job
// whose entry is gone (an earlier run found in the spool), from its
// launch record, so the controller can tell a late event of an earlier
// run from the current one's. Without a launch record the run is left out.
func TestEventsCarryTheRun(t *testing.T) {
	cases := map[string]struct {
		entryRun int // -1: no entry
		launch   *spool.Launch
		want     *int
	}{
		"from the daemon's entry":   {entryRun: 2, want: ptr(2)},
		"from the launch record":    {entryRun: -1, launch: &spool.Launch{Request: api.LaunchRequest{Restarts: 3}}, want: ptr(3)},
		"unknown: no launch record": {entryRun: -1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			a, e := usageAgent(t)
			delete(a.jobs, 7)
			if tc.launch != nil {
				if err := spool.WriteJSON(filepath.Join(e.dir, spool.LaunchFile), tc.launch); err != nil {
					t.Fatal(err)
				}
			}
			if err := spool.WriteJSON(filepath.Join(e.dir, spool.StartFile), spool.Start{Time: time.Unix(100, 0)}); err != nil {
				t.Fatal(err)
			}
			if err := spool.WriteJSON(filepath.Join(e.dir, spool.ResultFile), api.JobEvent{Kind: api.EventEnded}); err != nil {
				t.Fatal(err)
			}
			end, err := a.numberEnd(e.dir, 7, tc.entryRun)
			if err != nil {
				t.Fatal(err)
			}
			got := map[api.JobEventKind]*int{end.Kind: end.Run}
			for _, ev := range a.out.batch() {
				got[ev.Kind] = ev.Run
			}
			want := map[api.JobEventKind]*int{api.EventStarted: tc.want, api.EventEnded: tc.want}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("runs by event (-want +got):\n%s", diff)
			}
		})
	}
}

func ptr(n int) *int { return &n }
