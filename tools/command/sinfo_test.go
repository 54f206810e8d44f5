package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSinfoPeer runs the recorded sinfo cases against the nodes and
// partitions the peer reported in the same second.
func TestSinfoPeer(t *testing.T) { sinfoPeerCases(t, "testdata/peer/sinfo") }

// TestSinfoSweepPeer runs the cases of the sweep against the peer
// (capture-sinfo-sweep.sh): partition values that split lines, cut
// names and NULL strings, -o %all and -O all, bad letters, -S keys and
// -n host lists Slurm's hostlist_create reads or refuses.
func TestSinfoSweepPeer(t *testing.T) { sinfoPeerCases(t, "testdata/peer/sinfo-sweep") }

func sinfoPeerCases(t *testing.T, dir string) {
	for _, tc := range loadCases(t, dir) {
		t.Run(tc.name, func(t *testing.T) {
			base := dir + "/" + tc.name
			f := &fakeController{now: tc.now, nodes: peerNodes(t, base+".nodes"),
				partitions: peerPartitionsFrom(t, base+".parts")}
			te := newTestEnv(f, tc.now)
			code := Sinfo(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.stdout, te.stdout.String()); diff != "" {
				t.Errorf("sinfo %q stdout (-want +got):\n%s", tc.args, diff)
			}
			if diff := cmp.Diff(tc.stderr, te.stderr.String()); diff != "" {
				t.Errorf("sinfo %q stderr (-want +got):\n%s", tc.args, diff)
			}
			if code != tc.exit {
				t.Errorf("sinfo %q exit = %d, want %d", tc.args, code, tc.exit)
			}
		})
	}
}

// TestSinfoReservationsAndUsage: -T with no admin reservations says so
// in Slurm's words; --usage is Slurm's text.
func TestSinfoReservationsAndUsage(t *testing.T) {
	tests := map[string]struct {
		args    []string
		wantOut string
	}{
		"-T": {args: []string{"-T"}, wantOut: "No reservations in the system\n"},
		// Slurm's sinfo ignores operands (the peer prints its usual lines).
		"an operand is ignored": {args: []string{"-h", "-o", "%P", "extra"}, wantOut: ""},
		"--usage": {args: []string{"--usage"},
			wantOut: "Usage: sinfo [-abdelNRrsTv] [-i seconds] [-t states] [-p partition] [-n nodes]\n" +
				"             [-S fields] [-o format] [-O Format] [--federation] [--local]\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(&fakeController{now: 1795950000}, 1795950000)
			if code := Sinfo(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.wantOut, te.stdout.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
