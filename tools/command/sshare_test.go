package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// sharesData is two tenants: vision borrows 4 GPUs beyond its guarantee
// of 16, lent by nlp's idle guarantee.
func sharesData() *fakeLive {
	return &fakeLive{fakeController: &fakeController{}, shares: api.SharesResponse{Rows: []api.ShareRow{
		{Account: "vision", RawShares: 2, NormShares: 2.0 / 3, RawUsage: 720000, NormUsage: 0.8, EffectvUsage: 0.8,
			FairShare: 0.435275, Guarantee: 16, InUse: 20, Borrowed: 4, GrpTRES: "gres/gpu=24"},
		{Account: "vision", User: "alice", RawShares: 1, NormShares: 0.5, RawUsage: 700000, NormUsage: 0.777778,
			EffectvUsage: 0.788889, FairShare: 0.194157, InUse: 20},
		{Account: "vision", User: "bob", RawShares: 1, NormShares: 0.5, RawUsage: 20000, NormUsage: 0.022222,
			EffectvUsage: 0.411111, FairShare: 0.425665},
		{Account: "nlp", RawShares: 1, NormShares: 1.0 / 3, RawUsage: 180000, NormUsage: 0.2, EffectvUsage: 0.2,
			FairShare: 0.659754, Guarantee: 8, InUse: 2, Lent: 4},
		{Account: "nlp", User: "carol", RawShares: 1, NormShares: 1, RawUsage: 180000, NormUsage: 0.2,
			EffectvUsage: 0.2, FairShare: 0.659754, InUse: 2},
	}}}
}

func TestSshare(t *testing.T) {
	tests := map[string][]string{
		"sshare-default.txt":  {"-a"},
		"sshare-long.txt":     {"-a", "-l"},
		"sshare-parsable.txt": {"-a", "-P"},
		"sshare-p.txt":        {"-p", "-n", "-A", "nlp"},
		"sshare-format.txt":   {"-a", "-o", "Account,User%8,FairShare,Borrowed,Lent"},
		"sshare-users.txt":    {"-U", "-u", "alice,carol"},
	}
	for name, args := range tests {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(sharesData(), 1795953600)
			if code := Sshare(context.Background(), te.Env, args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			checkGolden(t, name, te.stdout.String())
		})
	}
}

// TestSshareHeaderMatchesPeer: with no tenants Loam prints Slurm's
// header and dashes for Slurm's columns, followed by Loam's.
func TestSshareHeaderMatchesPeer(t *testing.T) {
	te := liveEnv(&fakeLive{fakeController: &fakeController{}}, 1795953600)
	if code := Sshare(context.Background(), te.Env, []string{"-o", "Account,User,RawShares,NormShares,RawUsage,EffectvUsage,FairShare"}); code != 0 {
		t.Fatal(te.stderr)
	}
	want := "Account                    User  RawShares  NormShares    RawUsage  EffectvUsage  FairShare \n" +
		"-------------------- ---------- ---------- ----------- ----------- ------------- ---------- \n"
	got := te.stdout.String()
	if !strings.HasPrefix(got, want) {
		t.Errorf("header (-peer +loam):\n%s", cmp.Diff(want, got))
	}
}

func TestSshareQuery(t *testing.T) {
	f := sharesData()
	te := liveEnv(f, 1795953600)
	Sshare(context.Background(), te.Env, []string{"-A", "Vision,nlp", "-u", "alice", "-a"})
	want := []api.SharesQuery{{Accounts: []string{"vision", "nlp"}, Users: []string{"alice"}, All: true}}
	if diff := cmp.Diff(want, f.shareQs); diff != "" {
		t.Errorf("query (-want +got):\n%s", diff)
	}
	te = liveEnv(f, 1795953600)
	if code := Sshare(context.Background(), te.Env, []string{"-o", "Nosuch"}); code != 1 || !strings.Contains(te.stderr.String(), "Nosuch") {
		t.Errorf("bad field: exit %d %q", code, te.stderr)
	}
}
