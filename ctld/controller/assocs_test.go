package controller

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// assocTenants is etc/demo/tenants.conf, cut to two tenants.
const assocTenants = `TenantName=DEFAULT MaxJobsPerUser=100 MaxSubmitJobsPerUser=1000
TenantName=Research Weight=50 Guarantee=gres/gpu=16 BorrowLimit=gres/gpu=16 MaxTRESPerUser=gres/gpu=16 Description="Model research"
TenantName=data Weight=20 Guarantee=gres/gpu=8 GrpJobs=40
UserName=root Accounts=research,data DefaultAccount=research
UserName=bob Accounts=data MaxJobs=20 GrpTRES=gres/gpu=4,cpu=64
`

// TestAssocTree: tenants.conf's limits land in the Slurm columns that mean
// the same: Guarantee+BorrowLimit is the tenant's GrpTRES, the per-user
// defaults are the account's MaxJobs/MaxSubmit, and a user's effective
// caps in each tenant are its association's GrpTRES/MaxJobs/MaxSubmit.
func TestAssocTree(t *testing.T) {
	tc, err := slurmconf.ParseTenants(fstest.MapFS{"tenants.conf": {Data: []byte(assocTenants)}}, "tenants.conf")
	if err != nil {
		t.Fatal(err)
	}
	conf := &slurmconf.Config{ClusterName: "demo", SlurmctldPort: 6817, Tenants: tc.Tenants, Users: tc.Users,
		SlurmctldHosts: []slurmconf.ControllerHost{{Host: "head", Addr: "10.0.0.1"}}}
	none := api.NoLimit
	want := &api.AssocResponse{ClusterName: "demo", ControlHost: "10.0.0.1", ControlPort: 6817,
		Accounts: []api.AssocAccount{
			{Name: "research", Description: "Model research", Share: 50, GrpTRES: "gres/gpu=32",
				GrpJobs: none, GrpSubmit: none, MaxJobs: 100, MaxSubmit: 1000},
			{Name: "data", Share: 20, GrpJobs: 40, GrpSubmit: none, MaxJobs: 100, MaxSubmit: 1000},
		},
		Users: []api.AssocUser{
			{Name: "root", DefaultAccount: "research", Admin: true, Assocs: []api.AssocUserLimit{
				{Account: "research", Share: 1, GrpTRES: "gres/gpu=16", MaxJobs: 100, MaxSubmit: 1000},
				{Account: "data", Share: 1, MaxJobs: 100, MaxSubmit: 1000}}},
			{Name: "bob", DefaultAccount: "data", Assocs: []api.AssocUserLimit{
				{Account: "data", Share: 1, GrpTRES: "cpu=64,gres/gpu=4", MaxJobs: 20, MaxSubmit: 1000}}},
		},
	}
	if diff := cmp.Diff(want, assocTree(conf)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
