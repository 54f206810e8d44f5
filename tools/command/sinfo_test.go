package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSinfoPeer runs the recorded sinfo cases against the nodes and
// partitions the peer reported in the same second.
func TestSinfoPeer(t *testing.T) {
	for _, tc := range loadCases(t, "testdata/peer/sinfo") {
		t.Run(tc.name, func(t *testing.T) {
			base := "testdata/peer/sinfo/" + tc.name
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
