package command

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// fakeLive is a controller that also serves the live views.
type fakeLive struct {
	*fakeController
	prio    api.PrioResponse
	prioQs  []api.PrioQuery
	shares  api.SharesResponse
	shareQs []api.SharesQuery
	resv    api.ReservationsResponse
	log     api.JobLogResponse
	preempt api.PreemptReport
	util    api.UtilReport
	reportQ []api.ReportQuery
}

var _ LiveController = (*fakeLive)(nil)

func (f *fakeLive) Priorities(_ context.Context, q *api.PrioQuery) (*api.PrioResponse, error) {
	f.prioQs = append(f.prioQs, *q)
	out := f.prio
	out.Jobs = nil
	for _, j := range f.prio.Jobs {
		if (len(q.JobIDs) == 0 || containsU32(q.JobIDs, j.JobID)) && (len(q.Partitions) == 0 || contains(q.Partitions, j.Partition)) &&
			(len(q.Users) == 0 || contains(q.Users, j.User)) {
			out.Jobs = append(out.Jobs, j)
		}
	}
	return &out, nil
}

func (f *fakeLive) Shares(_ context.Context, q *api.SharesQuery) (*api.SharesResponse, error) {
	f.shareQs = append(f.shareQs, *q)
	out := api.SharesResponse{Now: f.shares.Now, Private: f.shares.Private}
	for _, r := range f.shares.Rows {
		if len(q.Accounts) > 0 && !contains(q.Accounts, r.Account) || len(q.Users) > 0 && r.User != "" && !contains(q.Users, r.User) {
			continue
		}
		out.Rows = append(out.Rows, r)
	}
	return &out, nil
}

func (f *fakeLive) Reservations(_ context.Context, q *api.ResvQuery) (*api.ReservationsResponse, error) {
	out := api.ReservationsResponse{Now: f.resv.Now}
	for _, r := range f.resv.Reservations {
		if len(q.Names) == 0 || contains(q.Names, r.Name) {
			out.Reservations = append(out.Reservations, r)
		}
	}
	return &out, nil
}

func (f *fakeLive) JobLog(context.Context, *api.JobLogQuery) (*api.JobLogResponse, error) {
	return &f.log, nil
}

func (f *fakeLive) PreemptReport(_ context.Context, q *api.ReportQuery) (*api.PreemptReport, error) {
	f.reportQ = append(f.reportQ, *q)
	return &f.preempt, nil
}

func (f *fakeLive) UtilReport(_ context.Context, q *api.ReportQuery) (*api.UtilReport, error) {
	f.reportQ = append(f.reportQ, *q)
	return &f.util, nil
}

func containsU32(list []uint32, v uint32) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// liveEnv is a test environment dialing f.
func liveEnv(f *fakeLive, now int64) *testEnv {
	te := newTestEnv(f.fakeController, now)
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	return te
}

// peerSprio is what the peer's two pending jobs look like to Loam: the
// peer weighs age and job size by 1000 (capture in testdata/peer/sprio).
func peerSprio(t *testing.T) *fakeLive {
	ids := strings.Fields(readPeer(t, "sprio/ids"))
	id := func(i int) uint32 {
		n, _ := strtol(ids[i])
		return uint32(n)
	}
	return &fakeLive{fakeController: &fakeController{}, prio: api.PrioResponse{
		Weights: api.PriorityWeights{Age: 1000, JobSize: 1000},
		Jobs: []api.JobPriority{
			{JobID: id(0), Partition: "normal", User: "root", Priority: 1000, Factors: api.PriorityFactors{JobSize: 1000}},
			{JobID: id(1), Partition: "batch", User: "root", Priority: 990, Nice: 10, Factors: api.PriorityFactors{JobSize: 1000, Nice: 10}},
		}}}
}

func readPeer(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "peer", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestSprioMatchesPeer: sprio's formats print what Slurm 22.05 printed
// for the same jobs and weights.
func TestSprioMatchesPeer(t *testing.T) {
	tests := map[string][]string{
		"default.txt":            nil,
		"long.txt":               {"-l"},
		"norm.txt":               {"-n"},
		"weights.txt":            {"-w"},
		"long-weights.txt":       {"-l", "-w"},
		"norm-weights.txt":       {"-n", "-w"},
		"user.txt":               {"-u", "root"},
		"noheader-partition.txt": {"-h", "-p", "batch"},
		"format.txt":             {"-o", "%i %Y %u %r %N"},
		"missing-job.txt":        {"-j999999"},
		"long-norm.txt":          {"-l", "-n"},
	}
	for name, args := range tests {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(peerSprio(t), 1795953600)
			if code := Sprio(context.Background(), te.Env, args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(readPeer(t, "sprio/"+name), te.stdout.String()); diff != "" {
				t.Errorf("sprio %v (-peer +loam):\n%s", args, diff)
			}
		})
	}
}

// TestSprioLoamColumns: with aging and compensation configured, their
// columns follow Slurm's; --history prints the trail.
func TestSprioLoamColumns(t *testing.T) {
	f := &fakeLive{fakeController: &fakeController{}, prio: api.PrioResponse{
		Weights: api.PriorityWeights{Age: 1000, Fairshare: 2000, AgingCap: 500, Compensation: 100},
		Jobs: []api.JobPriority{{JobID: 7, Partition: "batch", User: "alice", Priority: 1730,
			Factors: api.PriorityFactors{Age: 400, Fairshare: 1000, Aging: 250, Compensation: 80}}},
		History: []api.PriorityAudit{
			{JobID: 7, Time: 1795953000, Old: 0, New: 1400, Reason: "initial", Factors: api.PriorityFactors{Age: 400, Fairshare: 1000}},
			{JobID: 7, Time: 1795953600, Old: 1400, New: 1730, Reason: "aging+250,compensation+80",
				Factors: api.PriorityFactors{Age: 400, Fairshare: 1000, Aging: 250, Compensation: 80}},
		}}}
	for name, args := range map[string][]string{"sprio-loam.txt": nil, "sprio-loam-norm.txt": {"-n"},
		"sprio-history.txt": {"--history", "-j", "7"}} {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(f, 1795953600)
			if code := Sprio(context.Background(), te.Env, args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			checkGolden(t, name, te.stdout.String())
		})
	}
	te := liveEnv(f, 1795953600)
	if code := Sprio(context.Background(), te.Env, []string{"--history"}); code != 1 || !strings.Contains(te.stderr.String(), "-j") {
		t.Errorf("--history without -j: exit %d, %q", code, te.stderr)
	}
}

func TestSprioBadOptions(t *testing.T) {
	tests := map[string]struct {
		args     []string
		wantCode int
		wantErr  string
	}{
		"an unknown option":     {[]string{"-x"}, 1, "sprio: invalid option -- 'x'\nTry \"sprio --help\" for more information\n"},
		"an unknown user":       {[]string{"-u", "nosuch"}, 0, "sprio: error: Invalid user: nosuch\n\n"},
		"a bad format letter":   {[]string{"-o", "%Z"}, 0, "sprio: error: Invalid job format specification: Z\n"},
		"a job id that is text": {[]string{"-jabc"}, 1, "sprio: error: Invalid job id: abc\n"},
		"an operand":            {[]string{"foo"}, 1, "sprio: error: Unrecognized option: foo\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(peerSprio(t), 1795953600)
			if code := Sprio(context.Background(), te.Env, tc.args); code != tc.wantCode || te.stderr.String() != tc.wantErr {
				t.Errorf("exit %d stderr %q, want %d %q", code, te.stderr, tc.wantCode, tc.wantErr)
			}
		})
	}
}
