package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSreportInteractivePeer: without a command sreport reads commands
// from standard input as the peer does (less the terminal escapes its
// readline writes for lines longer than the screen).
func TestSreportInteractivePeer(t *testing.T) {
	const cmd = "cluster util start=2026-11-30T06:00 end=2026-11-30T07:00 format=cluster"
	tests := map[string]struct {
		stdin, stdout, stderr string
		code                  int
	}{
		"quit ends, an error is exit 1": {"bogus x\n\n" + cmd + "\nquit\ncluster util\n",
			"sreport: bogus x\nsreport: \nsreport: " + cmd + "\n     acct \nsreport: quit\n", "invalid keyword: bogus\n", 1},
		"the end of the input": {cmd + "\n", "sreport: " + cmd + "\n     acct \nsreport: \n", "", 0},
		"no input":             {"", "sreport: \n", "", 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(peerUtil(), peerNow)
			te.Stdin = strings.NewReader(tc.stdin)
			code := Sreport(context.Background(), te.Env, []string{"-n"})
			if diff := cmp.Diff(tc.stdout, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-peer +loam):\n%s", diff)
			}
			if code != tc.code || te.stderr.String() != tc.stderr {
				t.Errorf("exit %d stderr %q, peer: exit %d stderr %q", code, te.stderr, tc.code, tc.stderr)
			}
		})
	}
}
