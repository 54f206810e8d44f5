package command

import (
	"context"
	"slices"
	"strings"
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

// TestSinfoSortPeer runs every -S letter both ways against the peer
// (capture-sinfo-sweep.sh sinfo_sort_cases.txt sinfo-sort), with cpu008
// drained so lines of two states share each partition.
func TestSinfoSortPeer(t *testing.T) { sinfoPeerCases(t, "testdata/peer/sinfo-sort") }

// TestSinfoS26Peer runs the cases of the December 1 display sweep: -O
// fields of negative width, -o and -O sharing one format, an invalid -O
// name's suffix, a draining node with free CPUs (allocated to sinfo, not
// mixed) and a bad format beside -T.
func TestSinfoS26Peer(t *testing.T) { sinfoPeerCases(t, "testdata/peer/sinfo-s26") }

// sinfoRacedCases are recorded cases whose line order the peer did not
// decide: sinfo reads each partition's nodes in a thread of its own and
// the lines those threads add come in the order the threads run, which
// changes from one run to the next (the peer gives a different order
// for most runs of "sinfo -N -S bogus"). Where the keys leave such
// lines tied, the recorded order is one draw of that race; Loam keeps
// the threads' most frequent order, partition by partition. These
// cases are checked for the same lines in any order.
var sinfoRacedCases = map[string]string{
	// The drained cpu008's three lines tie on every key.
	"testdata/peer/sinfo-sort/08-key-rev-c": "drain lines tie (32 CPUs each)",
	"testdata/peer/sinfo-sort/34-key-rev-n": "-n keeps the list order (no host names read)",
	"testdata/peer/sinfo-sort/61-key-V":     "no cluster names: all lines tie",
	"testdata/peer/sinfo-sort/68-key-rev-Y": "drain lines tie (16 cores)",
	"testdata/peer/sinfo-sort/71-key-z":     "drain lines tie (2:16:1)",
	"testdata/peer/sinfo-sort/72-key-rev-z": "drain lines tie (2:16:1)",
	"testdata/peer/sinfo-sort/73-bogus":     "o reverses the raced order; s, u, g and b tie the drain lines",
	"testdata/peer/sinfo-sort/74-bogus-N":   "o reverses the raced order of 120 node lines",
}

func sinfoPeerCases(t *testing.T, dir string) {
	for _, tc := range loadCases(t, dir) {
		t.Run(tc.name, func(t *testing.T) {
			base := dir + "/" + tc.name
			f := &fakeController{now: tc.now, nodes: peerNodes(t, base+".nodes"),
				partitions: peerPartitionsFrom(t, base+".parts")}
			te := newTestEnv(f, tc.now)
			code := Sinfo(context.Background(), te.Env, tc.args)
			if why, ok := sinfoRacedCases[base]; ok {
				t.Logf("order raced in the peer (%s): comparing lines only", why)
				if diff := cmp.Diff(sortedLines(tc.stdout), sortedLines(te.stdout.String())); diff != "" {
					t.Errorf("sinfo %q stdout lines (-want +got):\n%s", tc.args, diff)
				}
			} else if diff := cmp.Diff(tc.stdout, te.stdout.String()); diff != "" {
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

func sortedLines(s string) []string {
	lines := strings.Split(s, "\n")
	slices.Sort(lines)
	return lines
}

// TestSinfoAllAndPartitionFromEnv: SINFO_ALL with SINFO_PARTITION is a
// conflict, as -a with -p is; either with the other's option is not.
func TestSinfoAllAndPartitionFromEnv(t *testing.T) {
	const conflict = "sinfo: error: Conflicting options, SINFO_ALL and SINFO_PARTITION, specified. Please choose one or the other.\n"
	cases := map[string]struct {
		env    []string
		args   []string
		code   int
		stderr string
	}{
		"both variables":      {env: []string{"SINFO_ALL=1", "SINFO_PARTITION=batch"}, code: 1, stderr: conflict},
		"SINFO_ALL with -p":   {env: []string{"SINFO_ALL=1"}, args: []string{"-p", "batch"}},
		"SINFO_PARTITION, -a": {env: []string{"SINFO_PARTITION=batch"}, args: []string{"-a"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(&fakeController{now: 1795990100}, 1795990100)
			te.Environ = append(te.Environ, tc.env...)
			code := Sinfo(context.Background(), te.Env, append(tc.args, "-h"))
			if code != tc.code || te.stderr.String() != tc.stderr {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, te.stderr, tc.code, tc.stderr)
			}
		})
	}
}
