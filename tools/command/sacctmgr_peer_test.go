package command

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// fakeAssocs serves an association tree as loam-ctld would.
type fakeAssocs struct {
	*fakeController
	tree api.AssocResponse
}

func (f *fakeAssocs) Assocs(context.Context, *api.AssocQuery) (*api.AssocResponse, error) {
	return &f.tree, nil
}

// peerAssocs is the accounting peer's database (testdata/peer/sacctmgr/
// README) as tenants.conf would give it.
func peerAssocs() *fakeAssocs {
	none := api.NoLimit
	return &fakeAssocs{fakeController: &fakeController{}, tree: api.AssocResponse{
		ClusterName: "acct", ControlHost: "127.0.0.1", ControlPort: 17817,
		Accounts: []api.AssocAccount{
			{Name: "research", Description: "research", Share: 1, GrpJobs: none, GrpSubmit: none, MaxJobs: none, MaxSubmit: none},
			{Name: "product", Description: "online models: fixes and evaluation", Share: 30, GrpTRES: "gres/gpu=16",
				GrpJobs: none, GrpSubmit: none, MaxJobs: 100, MaxSubmit: 1000},
			{Name: "verylongaccountname22", Share: 20, GrpJobs: none, GrpSubmit: none, MaxJobs: none, MaxSubmit: none},
		},
		Users: []api.AssocUser{
			{Name: "root", DefaultAccount: "research", Admin: true, Assocs: []api.AssocUserLimit{
				{Account: "research", Share: 1, MaxJobs: none, MaxSubmit: none}}},
			{Name: "bob", DefaultAccount: "product", Assocs: []api.AssocUserLimit{
				{Account: "product", Share: 1, GrpTRES: "cpu=64,gres/gpu=16", MaxJobs: 20, MaxSubmit: 1000},
				{Account: "verylongaccountname22", Share: 1, GrpTRES: "cpu=64,gres/gpu=16", MaxJobs: 20, MaxSubmit: none}}},
			{Name: "alice", DefaultAccount: "product", Assocs: []api.AssocUserLimit{
				{Account: "product", Share: 2, MaxJobs: 100, MaxSubmit: 1000}}},
		},
	}}
}

// runMgr runs sacctmgr against f: its standard output, then its standard
// error, then "rc=N", as the peer's captures hold them.
func runMgr(f *fakeAssocs, args []string) string {
	te := newTestEnv(f.fakeController, 1796022000)
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	code := Sacctmgr(context.Background(), te.Env, args)
	return te.stdout.String() + te.stderr.String() + "rc=" + strconv.Itoa(code) + "\n"
}

// runMgrInput runs sacctmgr without a command, input on its standard
// input; standard error goes to the same buffer, as a terminal shows it.
func runMgrInput(f *fakeAssocs, input string) string {
	te := newTestEnv(f.fakeController, 1796022000)
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	te.Stdin = strings.NewReader(input)
	te.Stderr = te.stdout
	code := Sacctmgr(context.Background(), te.Env, nil)
	return te.stdout.String() + "rc=" + strconv.Itoa(code) + "\n"
}

// TestSacctmgrPeer: every capture in testdata/peer/sacctmgr, run on the
// same tree, prints the peer's text and exit code.
func TestSacctmgrPeer(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "peer", "sacctmgr", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no captures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cmdline, want, _ := strings.Cut(string(data), "\n")
			got := runMgr(peerAssocs(), strings.Fields(cmdline))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("sacctmgr %s (-peer +loam):\n%s", cmdline, diff)
			}
		})
	}
}
