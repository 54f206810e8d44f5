package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSqueueResvDelHold: a job held because its reservation ended, as the
// peer printed job 14888 (testdata/peer/advresv/resv_end.txt).
func TestSqueueResvDelHold(t *testing.T) {
	const now = 1795950000
	held := api.Job{JobID: 14888, Name: "wrap", UserName: "root", Partition: "normal", JobState: job.ResvDelHold,
		StateReason: job.ReasonReservationDeleted, StateDescription: "Reservation s12h_f was deleted", NodeCount: 1}
	tests := map[string]struct {
		args []string
		want string
	}{
		"default": {[]string{"-j", "14888"},
			"             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)\n" +
				"             14888    normal     wrap     root RD       0:00      1 (Reservation s12h_f was deleted)\n"},
		"state, reservation and reason": {[]string{"-o", "%i %T %v %r", "-h"},
			"14888 RESV_DEL_HOLD (null) Reservation s12h_f was deleted\n"},
		"-t RD selects it":   {[]string{"-t", "RD", "-h", "-o", "%i"}, "14888\n"},
		"-t PD does not":     {[]string{"-t", "PD", "-h", "-o", "%i"}, ""},
		"nor does -R s12h_f": {[]string{"-R", "s12h_f", "-h", "-o", "%i"}, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{now: now, jobs: []api.Job{held}}
			te := newTestEnv(f, now)
			if code := Squeue(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if got := underscored(reasonText(&held)); got != "Reservation_s12h_f_was_deleted" {
		t.Errorf("scontrol show job Reason=%s, want the peer's Reservation_s12h_f_was_deleted", got)
	}
}

// TestSqueueAdminComment: squeue -O admin_comment shows an operator's
// AdminComment, (null) without one, as the peer's squeue does.
func TestSqueueAdminComment(t *testing.T) {
	const now = 1795950000
	jobs := []api.Job{{JobID: 7, Name: "wrap", UserName: "root", Partition: "normal", JobState: job.Pending, AdminComment: "ops"},
		{JobID: 8, Name: "wrap", UserName: "root", Partition: "normal", JobState: job.Pending}}
	te := newTestEnv(&fakeController{now: now, jobs: jobs}, now)
	if code := Squeue(context.Background(), te.Env, []string{"-O", "jobid:4,admin_comment", "-h"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	want := "8   (null)              \n7   ops                 \n" // squeue's order
	if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
