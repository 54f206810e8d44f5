package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSinfoSortHostLists: sinfo reads host names and addresses only for
// a format that prints them, and compares empty lists as always
// "greater", so -S n and -S o reverse the lines unless the format shows
// that column (then every line ties here: one host name, one address).
// "#P" first keeps the peer's thread race out of the order. Expected
// text is the peer's, with cpu008 drained as in the recorded nodes.
func TestSinfoSortHostLists(t *testing.T) {
	const base = "testdata/peer/sinfo-sort/01-key-a"
	const (
		defaultHdr = "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
		uIdle      = "urgent       up 1-00:00:00     39   idle cpu[001-007],gpu[001-032]\n"
		uDrain     = "urgent       up 1-00:00:00      1  drain cpu008\n"
		nIdle      = "normal*      up 2-00:00:00     39   idle cpu[001-007],gpu[001-032]\n"
		nDrain     = "normal*      up 2-00:00:00      1  drain cpu008\n"
		bIdle      = "batch        up 7-00:00:00     39   idle cpu[001-007],gpu[001-032]\n"
		bDrain     = "batch        up 7-00:00:00      1  drain cpu008\n"
	)
	tests := map[string]struct {
		args []string
		want string
	}{
		"n reverses": {args: []string{"-S", "#P,n"},
			want: defaultHdr + uDrain + uIdle + nDrain + nIdle + bDrain + bIdle},
		"-n keeps": {args: []string{"-S", "#P,-n"},
			want: defaultHdr + uIdle + uDrain + nIdle + nDrain + bIdle + bDrain},
		"n with host names ties": {args: []string{"-S", "#P,n", "-o", "%P|%n|%t|%N"},
			want: "PARTITION|HOSTNAMES|STATE|NODELIST\n" +
				"urgent|localhost|idle|cpu[001-007],gpu[001-032]\nurgent|localhost|drain|cpu008\n" +
				"normal*|localhost|idle|cpu[001-007],gpu[001-032]\nnormal*|localhost|drain|cpu008\n" +
				"batch|localhost|idle|cpu[001-007],gpu[001-032]\nbatch|localhost|drain|cpu008\n"},
		"o with addresses ties": {args: []string{"-S", "#P,o", "-o", "%P|%o|%t|%N"},
			want: "PARTITION|NODE_ADDR|STATE|NODELIST\n" +
				"urgent|127.0.0.1|idle|cpu[001-007],gpu[001-032]\nurgent|127.0.0.1|drain|cpu008\n" +
				"normal*|127.0.0.1|idle|cpu[001-007],gpu[001-032]\nnormal*|127.0.0.1|drain|cpu008\n" +
				"batch|127.0.0.1|idle|cpu[001-007],gpu[001-032]\nbatch|127.0.0.1|drain|cpu008\n"},
		"o with host names only reverses": {args: []string{"-S", "#P,o", "-o", "%P|%n|%t|%N"},
			want: "PARTITION|HOSTNAMES|STATE|NODELIST\n" +
				"urgent|localhost|drain|cpu008\nurgent|localhost|idle|cpu[001-007],gpu[001-032]\n" +
				"normal*|localhost|drain|cpu008\nnormal*|localhost|idle|cpu[001-007],gpu[001-032]\n" +
				"batch|localhost|drain|cpu008\nbatch|localhost|idle|cpu[001-007],gpu[001-032]\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{now: 1796041905, nodes: peerNodes(t, base+".nodes"),
				partitions: peerPartitionsFrom(t, base+".parts")}
			te := newTestEnv(f, 1796041905)
			if code := Sinfo(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("sinfo %q (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}
