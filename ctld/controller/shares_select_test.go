package controller

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// TestShareSelected: which rows sshare's options keep. As on Slurm
// 22.05, -u keeps every account (tenant) row: `sshare -u bob` lists
// root, every account, and bob's rows only.
func TestShareSelected(t *testing.T) {
	root := auth.Identity{User: "root"}
	tenant := api.ShareRow{Account: "research"}
	bob := api.ShareRow{Account: "research", User: "bob"}
	alice := api.ShareRow{Account: "research", User: "alice"}
	tests := map[string]struct {
		q    api.SharesQuery
		row  api.ShareRow
		want bool
	}{
		"a tenant row with -u":        {api.SharesQuery{Users: []string{"bob"}}, tenant, true},
		"the named user with -u":      {api.SharesQuery{Users: []string{"bob"}}, bob, true},
		"another user with -u":        {api.SharesQuery{Users: []string{"bob"}}, alice, false},
		"another user with -u and -a": {api.SharesQuery{Users: []string{"bob"}, All: true}, alice, false},
		"another user with -a":        {api.SharesQuery{All: true}, alice, true},
		"another user by default":     {api.SharesQuery{}, alice, false},
		"a tenant row of another -A":  {api.SharesQuery{Accounts: []string{"lab"}}, tenant, false},
		"a tenant row by default":     {api.SharesQuery{}, tenant, true},
		"the caller's own user row":   {api.SharesQuery{}, api.ShareRow{Account: "research", User: "root"}, true},
	}
	for name, tc := range tests {
		if got := shareSelected(&tc.q, root, tc.row); got != tc.want {
			t.Errorf("%s: selected %v, want %v", name, got, tc.want)
		}
	}
}
