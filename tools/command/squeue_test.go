package command

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
)

// TestSqueuePeer runs every recorded squeue case against the jobs the
// peer printed and compares Loam's output with Slurm's, byte for byte.
func TestSqueuePeer(t *testing.T) {
	jobs := peerJobs(t, "testdata/peer/jobs.txt")
	nodes := peerNodes(t, "testdata/peer/nodes.txt") // -w names are checked against them
	parts := peerPartitions(t)
	replaySqueue(t, "testdata/peer/squeue", func(now int64) *fakeController {
		return &fakeController{now: now, jobs: jobs, partitions: parts, nodes: nodes}
	})
}

// replaySqueue runs squeue over every recorded peer case in dir against
// the controller ctl makes for the case's time and compares stdout,
// stderr and the exit status with the peer's.
func replaySqueue(t *testing.T, dir string, ctl func(now int64) *fakeController) {
	for _, tc := range loadCases(t, dir) {
		t.Run(tc.name, func(t *testing.T) {
			te := newTestEnv(ctl(tc.now), tc.now)
			code := Squeue(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.stdout, te.stdout.String()); diff != "" {
				t.Errorf("squeue %q stdout (-want +got):\n%s", tc.args, diff)
			}
			if diff := cmp.Diff(tc.stderr, te.stderr.String()); diff != "" {
				t.Errorf("squeue %q stderr (-want +got):\n%s", tc.args, diff)
			}
			if code != tc.exit {
				t.Errorf("squeue %q exit = %d, want %d", tc.args, code, tc.exit)
			}
		})
	}
}

// TestSqueueJSON checks that --json dumps every record, whatever filter.
func TestSqueueJSON(t *testing.T) {
	f := &fakeController{now: 1795950000, jobs: benchJobs(3)}
	te := newTestEnv(f, 1795950000)
	if code := Squeue(context.Background(), te.Env, []string{"--json", "-t", "R", "-j", "1"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	checkGolden(t, "squeue-json.txt", te.stdout.String())
	if diff := cmp.Diff([]api.JobQuery{{Detail: true, All: true}}, f.queries); diff != "" {
		t.Errorf("query (-want +got):\n%s", diff)
	}
}

// TestSqueueIterate checks -i: the date, the listing and a blank line
// each period, until the context ends.
func TestSqueueIterate(t *testing.T) {
	f := &fakeController{now: 1795950000, jobs: benchJobs(2)}
	te := newTestEnv(f, 1795950000)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	te.Sleep = func(ctx context.Context, d time.Duration) error {
		te.slept = append(te.slept, d)
		if n++; n == 2 {
			cancel()
		}
		return ctx.Err()
	}
	if code := Squeue(ctx, te.Env, []string{"-i", "5", "-o", "%i %P"}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	once := "Sun Nov 29 11:00:00 2026\nJOBID PARTITION\n2 batch\n1 normal\n\n"
	if diff := cmp.Diff(once+once, te.stdout.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]time.Duration{5 * time.Second, 5 * time.Second}, te.slept); diff != "" {
		t.Errorf("sleeps (-want +got):\n%s", diff)
	}
}

// TestSqueueFieldsAreServed: every field a squeue column asks the
// controller for is one it serves; an unknown one fails the whole query
// ("slurm_load_jobs error: Invalid request"), as -O ReqSwitch once did.
func TestSqueueFieldsAreServed(t *testing.T) {
	for _, cols := range [][]jobCol{jobCols, longOnlyCols} {
		for _, c := range cols {
			for _, f := range c.need {
				if !api.ValidJobField(f) {
					t.Errorf("column %q needs %q, which the controller does not serve", c.header, f)
				}
			}
		}
	}
	for _, f := range baseFields {
		if !api.ValidJobField(f) {
			t.Errorf("base field %q is not served", f)
		}
	}
}

// TestSqueueEmptyFormat: -o "" and -O "" print an empty header and an
// empty line per job, as Slurm does (an empty format is not the default).
func TestSqueueEmptyFormat(t *testing.T) {
	for _, args := range [][]string{{"-o", ""}, {"-O", ""}} {
		f := &fakeController{now: 1795950000, jobs: benchJobs(3)}
		te := newTestEnv(f, 1795950000)
		if code := Squeue(context.Background(), te.Env, args); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, te.stderr)
		}
		if got := te.stdout.String(); got != "\n\n\n\n" {
			t.Errorf("%q: stdout %q, want four empty lines", args, got)
		}
	}
}
