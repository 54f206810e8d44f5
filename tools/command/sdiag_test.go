package command

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// fakeStats is a controller that also answers sdiag.
type fakeStats struct {
	*fakeController
	stats  api.StatsResponse
	denied bool // refuse resets, as for a user
	resets int
}

var _ StatsController = (*fakeStats)(nil)

func (f *fakeStats) Stats(_ context.Context, reset bool) (*api.StatsResponse, error) {
	if reset {
		if f.denied {
			return nil, api.Errorf(api.CodeAccessDenied, "resetting the statistics is reserved to root and SlurmUser")
		}
		f.resets++
	}
	out := f.stats
	return &out, nil
}

// sdiagFixture is an hour of a small cluster's statistics.
func sdiagFixture() api.StatsResponse {
	const now = 1795980220
	return api.StatsResponse{
		ReqTime: now, ReqTimeStart: now - 3846, ServerThreads: 3, AgentCalls: 1,
		JobsSubmitted: 739, JobsStarted: 399, JobsCompleted: 328, JobsCanceled: 297, JobsFailed: 2,
		JobStatesTime: now, JobsPending: 4, JobsRunning: 12,
		Cycles: 660, CycleLast: 15, CycleMax: 14771, CycleSum: 111240, DepthSum: 1980,
		LastCycleAt: now - 5, QueueLen: 4, Backfilled: 97, ResvLast: 1, ResvSum: 700, TimeLatency: 40,
		RPCTypes: []api.RPCTypeStat{
			{Path: api.PathJobTable, ID: api.PathID(api.PathJobTable), Count: 1547, Time: 301338},
			{Path: api.PathSubmit, ID: api.PathID(api.PathSubmit), Count: 434, Time: 400682},
			{Path: api.PathCancel, ID: api.PathID(api.PathCancel), Count: 394, Time: 857611},
			{Path: api.PathPing, ID: api.PathID(api.PathPing), Count: 434, Time: 857},
			{Path: api.PathStats, ID: api.PathID(api.PathStats), Count: 1, Time: 155},
		},
		RPCUsers: []api.RPCUserStat{{UID: 1001, Count: 34, Time: 12092}, {UID: 0, Count: 2776, Time: 1560488}, {UID: 1000, Count: 34, Time: 900}},
	}
}

func runSdiag(t *testing.T, f *fakeStats, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	te := newTestEnv(f.fakeController, 1795980220)
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	code = Sdiag(context.Background(), te.Env, args)
	return te.stdout.String(), te.stderr.String(), code
}

func TestSdiagGolden(t *testing.T) {
	tests := map[string][]string{
		"sdiag":    nil,
		"sdiag-i":  {"-i"},
		"sdiag-t":  {"--sort-by-time"},
		"sdiag-T":  {"-T"},
		"sdiag-ar": {"-r", "-a"}, // -a after -r asks for the statistics again
	}
	for name, args := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeStats{fakeController: &fakeController{}, stats: sdiagFixture()}
			out, errOut, code := runSdiag(t, f, args...)
			if code != 0 || errOut != "" || f.resets != 0 {
				t.Fatalf("exit %d, stderr %q, %d resets", code, errOut, f.resets)
			}
			checkGolden(t, name+".txt", out)
		})
	}
}

// TestSdiagNoCyclesYet: as Slurm, the means need a cycle and the rate a
// minute of data.
func TestSdiagNoCyclesYet(t *testing.T) {
	f := &fakeStats{fakeController: &fakeController{}, stats: api.StatsResponse{ReqTime: 1795980220, ReqTimeStart: 1795980200,
		JobStatesTime: 1795980220, ServerThreads: 1}}
	out, _, _ := runSdiag(t, f)
	checkGolden(t, "sdiag-empty.txt", out)
}

// sdiagShape reduces sdiag's output to its layout: dates, numbers and
// the RPC rows' names (Slurm's message types, Loam's paths) abstracted.
func sdiagShape(s string) string {
	for _, r := range []struct{ re, to string }{
		{`\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}`, "DATE"},
		{`(?m)^\t[^\t(:]+\(`, "\tNAME("},
		{`\(\s*\d+\)`, "(N)"},
		{`\d+ *`, "N "},
	} {
		s = regexp.MustCompile(r.re).ReplaceAllString(s, r.to)
	}
	// Slurm and Loam serve different requests: one row of each section
	// shows the layout.
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "count:") && len(out) > 0 && out[len(out)-1] == l {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestSdiagMatchesThePeer: Loam's layout is the peer's, line for line
// (testdata/sdiag-peer.txt is Slurm 22.05's sdiag).
func TestSdiagMatchesThePeer(t *testing.T) {
	peer, err := os.ReadFile("testdata/sdiag-peer.txt")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeStats{fakeController: &fakeController{}, stats: sdiagFixture()}
	out, _, _ := runSdiag(t, f)
	if diff := cmp.Diff(sdiagShape(string(peer)), sdiagShape(out)); diff != "" {
		t.Errorf("layout differs from the peer's (-peer +loam):\n%s", diff)
	}
}

func TestSdiagOptions(t *testing.T) {
	tests := map[string]struct {
		args             []string
		denied           bool
		stdout, stderr   string
		code, wantResets int
	}{
		"--help":               {args: []string{"--help"}, stdout: sdiagHelp},
		"-h is help":           {args: []string{"-h"}, stdout: sdiagHelp},
		"--usage":              {args: []string{"--usage"}, stdout: "Usage: sdiag [-M cluster] [-aritT]\n"},
		"-V":                   {args: []string{"-V"}, stdout: versionLine + "\n"},
		"an unknown option":    {args: []string{"-x"}, stderr: "sdiag: invalid option -- 'x'\nTry \"sdiag --help\" for more information\n", code: 1},
		"an unknown long one":  {args: []string{"--frob"}, stderr: "sdiag: unrecognized option '--frob'\nTry \"sdiag --help\" for more information\n", code: 1},
		"reset":                {args: []string{"-r"}, stdout: "Reset scheduling statistics\n", wantResets: 1},
		"--reset":              {args: []string{"--reset"}, stdout: "Reset scheduling statistics\n", wantResets: 1},
		"a user may not reset": {args: []string{"-r"}, denied: true, stderr: "slurm_reset_statistics: Access/permission denied\n", code: 255},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeStats{fakeController: &fakeController{}, stats: sdiagFixture(), denied: tc.denied}
			out, errOut, code := runSdiag(t, f, tc.args...)
			got := []any{out, errOut, code, f.resets}
			want := []any{tc.stdout, tc.stderr, tc.code, tc.wantResets}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("sdiag %v: (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}

// TestSdiagWithoutTheEndpoint: a controller that cannot answer.
func TestSdiagWithoutTheEndpoint(t *testing.T) {
	te := newTestEnv(&fakeController{}, 1795980220)
	code := Sdiag(context.Background(), te.Env, nil)
	want := "slurm_get_statistics: Requested operation not supported on this system\n"
	if code != 255 || te.stderr.String() != want {
		t.Errorf("exit %d, stderr %q; want 255, %q", code, te.stderr.String(), want)
	}
}
