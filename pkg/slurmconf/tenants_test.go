package slurmconf

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func parseTenantsOK(t *testing.T, data string) *TenantsConf {
	t.Helper()
	tc, err := ParseTenants(fstest.MapFS{"tenants.conf": {Data: []byte(data)}}, "tenants.conf")
	if err != nil {
		t.Fatalf("ParseTenants: %v", err)
	}
	return tc
}

func TestTenantDefaults(t *testing.T) {
	tc := parseTenantsOK(t, `
TenantName=DEFAULT MaxJobsPerUser=10 Weight=2
TenantName=Research Guarantee=gres/gpu=64,cpu=512 BorrowLimit=gres/gpu=32,node=4 Description="R & D"
TenantName=ops Fairshare=5 Guarantee=gres/gpu=8 LendLimit=gres/gpu=0 GrpTRES=gres/gpu=8 MaxJobsPerUser=UNLIMITED
`)
	want := []Tenant{{
		Name: "research", Description: "R & D", Weight: 2,
		Guarantee:   TRES{"gres/gpu": 64, "cpu": 512},
		BorrowLimit: TRES{"gres/gpu": 32, "node": 4},
		LendLimit:   TRES{"gres/gpu": 64, "cpu": 512},
		// cpu has no borrow limit, so no cap; node has no guarantee.
		GrpTRES:              TRES{"gres/gpu": 96, "node": 4},
		MaxTRESPerUser:       TRES{},
		MaxJobsPerUser:       10,
		MaxSubmitJobsPerUser: Unlimited, GrpJobs: Unlimited, GrpSubmitJobs: Unlimited,
		Pos: Pos{"tenants.conf", 3},
	}, {
		Name: "ops", Weight: 5,
		Guarantee: TRES{"gres/gpu": 8}, BorrowLimit: TRES{}, LendLimit: TRES{"gres/gpu": 0},
		GrpTRES: TRES{"gres/gpu": 8}, MaxTRESPerUser: TRES{},
		MaxJobsPerUser: Unlimited, MaxSubmitJobsPerUser: Unlimited, GrpJobs: Unlimited, GrpSubmitJobs: Unlimited,
		Pos: Pos{"tenants.conf", 4},
	}}
	if diff := cmp.Diff(want, tc.Tenants); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestUserLimits(t *testing.T) {
	tc := parseTenantsOK(t, `
TenantName=a MaxTRESPerUser=gres/gpu=16,cpu=128 MaxJobsPerUser=10 MaxSubmitJobsPerUser=100
TenantName=b
UserName=DEFAULT Share=3
UserName=alice Accounts=a,b GrpTRES=gres/gpu=32,mem=1T MaxJobs=UNLIMITED
UserName=bob Account=A
`)
	c := &Config{Tenants: tc.Tenants, Users: tc.Users}
	tests := map[string]struct {
		user, tenant string
		want         UserLimits
	}{
		"user caps override the tenant's per-user defaults key by key": {"alice", "a",
			UserLimits{TRES: TRES{"gres/gpu": 32, "cpu": 128, "mem": 1 << 20}, Jobs: Unlimited, SubmitJobs: 100}},
		"a tenant without per-user defaults": {"alice", "b",
			UserLimits{TRES: TRES{"gres/gpu": 32, "mem": 1 << 20}, Jobs: Unlimited, SubmitJobs: Unlimited}},
		"a user without caps gets the tenant's": {"bob", "a",
			UserLimits{TRES: TRES{"gres/gpu": 16, "cpu": 128}, Jobs: 10, SubmitJobs: 100}},
		"an unknown user gets the tenant's": {"zed", "a",
			UserLimits{TRES: TRES{"gres/gpu": 16, "cpu": 128}, Jobs: 10, SubmitJobs: 100}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, c.UserLimits(tc.user, tc.tenant)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if bob, _ := c.User("bob"); bob.DefaultAccount != "a" || bob.Share != 3 {
		t.Errorf("bob = %+v", bob)
	}
}

func TestTenantsErrors(t *testing.T) {
	_, err := ParseTenants(fstest.MapFS{"tenants.conf": {Data: []byte(
		"TenantName=a Guarantee=gpu=4 Weigth=2\n" +
			"UserName=u\n" +
			"UserName=v Accounts=a GrpTRES=gres/gpu=lots MaxJobs=-1\n" +
			"Partition=p\n")}}, "tenants.conf")
	checkErrorPrefixes(t, err, []string{
		`tenants.conf:1: TenantName=a: Weigth: unknown key: not a TenantName key, did you mean Weight?`,
		`tenants.conf:1: TenantName=a: Guarantee: invalid value: "gpu" is not a TRES name`,
		`tenants.conf:2: UserName=u: Accounts: invalid value: a user needs Accounts= (its tenants)`,
		`tenants.conf:3: UserName=v: GrpTRES: invalid value: `,
		`tenants.conf:3: UserName=v: MaxJobs: invalid value: "-1" is not a valid number`,
		`tenants.conf:4: Partition=p: Partition: syntax error: a tenants.conf line starts with TenantName= or UserName=`,
	})
}
