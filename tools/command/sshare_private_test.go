package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestSsharePrivateUsage: with PrivateData=usage the controller answers
// only the caller's own rows and sshare prints them flat, without the
// root line: the peer's text for sshare -a as user s18g1.
func TestSsharePrivateUsage(t *testing.T) {
	live := &fakeLive{fakeController: &fakeController{}, shares: api.SharesResponse{Private: true, Rows: []api.ShareRow{
		{Account: "research", User: "s18g1", RawShares: 1, NormShares: 0.333333},
	}}}
	te := liveEnv(live, 1795953600)
	if code := Sshare(context.Background(), te.Env, []string{"-a"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	want := "Account                    User  RawShares  NormShares    RawUsage  EffectvUsage  FairShare \n" +
		"-------------------- ---------- ---------- ----------- ----------- ------------- ---------- \n" +
		"research                  s18g1          1    0.333333           0      0.000000   0.000000 \n"
	if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
		t.Errorf("(-peer +loam):\n%s", diff)
	}
}
