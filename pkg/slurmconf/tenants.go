package slurmconf

import (
	"io/fs"
	"strings"
)

var tenantSchema = newSchema("TenantName", func() []keySpec {
	return join(
		keys(honoured, "TenantName", "Description", "Weight", "Guarantee",
			"BorrowLimit", "LendLimit", "GrpTRES", "MaxTRESPerUser",
			"MaxJobsPerUser", "MaxSubmitJobsPerUser", "GrpJobs", "GrpSubmitJobs",
			"Partitions"),
		[]keySpec{{name: "Fairshare", alias: "Weight"}},
	)
})

var userSchema = newSchema("UserName", func() []keySpec {
	return join(
		keys(honoured, "UserName", "Accounts", "DefaultAccount", "Share",
			"GrpTRES", "MaxJobs", "MaxSubmitJobs"),
		[]keySpec{{name: "Account", alias: "Accounts"}, {name: "Fairshare", alias: "Share"}},
	)
})

// TenantsConf is a parsed tenants.conf.
type TenantsConf struct {
	Tenants  []Tenant
	Users    []User
	Files    []string
	Warnings []Warning
}

// ParseTenants reads the tenants.conf called name from fsys.
func ParseTenants(fsys fs.FS, name string) (*TenantsConf, error) {
	d := &diag{}
	t := parseTenants(fsys, name, d)
	err := d.sortedErr()
	t.Warnings = d.warnings
	return t, err
}

func parseTenants(fsys fs.FS, name string, d *diag) *TenantsConf {
	t := &TenantsConf{}
	r := newReader(fsys, d)
	r.read(name, Pos{File: name})
	t.Files = r.files
	var tenantDefs, userDefs lineDefaults
	for _, rec := range r.records {
		first := rec.Fields[0]
		recName := recordName(rec)
		switch strings.ToLower(first.Key) {
		case "tenantname":
			if x := defaultsLine(rec, tenantSchema, &tenantDefs, d); x != nil {
				t.Tenants = append(t.Tenants, x.tenant(first.Value))
			}
		case "username":
			if x := defaultsLine(rec, userSchema, &userDefs, d); x != nil {
				t.Users = append(t.Users, x.user(first.Value))
			}
		default:
			d.errorf(rec.Pos, recName, first.Key, ErrSyntax, "a tenants.conf line starts with TenantName= or UserName=")
		}
	}
	return t
}

// defaultsLine checks one line against s. A Xxx=DEFAULT line updates defs
// and returns nil; any other line returns its decoder, defaults applied.
func defaultsLine(rec record, s *schema, defs *lineDefaults, d *diag) *dec {
	first := rec.Fields[0]
	recName := recordName(rec)
	v := s.check(rec.Fields, recName, d)
	delete(v, s.keys()[strings.ToLower(first.Key)].name)
	if strings.EqualFold(first.Value, "DEFAULT") {
		defs.add(v, first.Key+"=DEFAULT")
		return nil
	}
	return &dec{d: d, rec: recName, pos: rec.Pos, v: defs.apply(v)}
}

func (x *dec) tenant(name string) Tenant {
	t := Tenant{Name: strings.ToLower(name), Weight: 1, Pos: x.pos, Guarantee: TRES{},
		MaxJobsPerUser: Unlimited, MaxSubmitJobsPerUser: Unlimited, GrpJobs: Unlimited, GrpSubmitJobs: Unlimited}
	if !validAccountName(t.Name) {
		x.d.errorf(x.pos, x.rec, "TenantName", ErrBadValue, "%q is not an account name", name)
	}
	x.str("Description", &t.Description)
	x.number("Weight", &t.Weight)
	x.tres("Guarantee", &t.Guarantee)
	x.tres("BorrowLimit", &t.BorrowLimit)
	x.tres("LendLimit", &t.LendLimit)
	x.tres("GrpTRES", &t.GrpTRES)
	x.tres("MaxTRESPerUser", &t.MaxTRESPerUser)
	x.limit("MaxJobsPerUser", &t.MaxJobsPerUser, Unlimited-1)
	x.limit("MaxSubmitJobsPerUser", &t.MaxSubmitJobsPerUser, Unlimited-1)
	x.limit("GrpJobs", &t.GrpJobs, Unlimited-1)
	x.limit("GrpSubmitJobs", &t.GrpSubmitJobs, Unlimited-1)
	x.list("Partitions", &t.Partitions)
	if t.LendLimit == nil {
		t.LendLimit = t.Guarantee.Clone()
	}
	if t.GrpTRES == nil {
		t.GrpTRES = defaultGrpTRES(t.Guarantee, t.BorrowLimit)
	}
	if t.BorrowLimit == nil {
		t.BorrowLimit = TRES{}
	}
	if t.MaxTRESPerUser == nil {
		t.MaxTRESPerUser = TRES{}
	}
	return t
}

// defaultGrpTRES is Guarantee+BorrowLimit for every TRES with a borrow
// limit; a TRES with no borrow limit may be borrowed without bound, so it
// gets no cap.
func defaultGrpTRES(guarantee, borrow TRES) TRES {
	out := TRES{}
	for k, b := range borrow {
		g := guarantee[k]
		if b == Unlimited || g == Unlimited || g > Unlimited-b {
			continue
		}
		out[k] = g + b
	}
	return out
}

func (x *dec) user(name string) User {
	u := User{Name: name, Share: 1, MaxJobs: Inherit, MaxSubmitJobs: Inherit, GrpTRES: TRES{}, Pos: x.pos}
	if name == "" || strings.ContainsAny(name, ",:/ ") {
		x.d.errorf(x.pos, x.rec, "UserName", ErrBadValue, "%q is not a user name", name)
	}
	x.list("Accounts", &u.Accounts)
	u.Accounts = lowerAll(u.Accounts)
	x.str("DefaultAccount", &u.DefaultAccount)
	u.DefaultAccount = strings.ToLower(u.DefaultAccount)
	switch {
	case len(u.Accounts) == 0 && u.DefaultAccount != "":
		u.Accounts = []string{u.DefaultAccount}
	case len(u.Accounts) == 0:
		x.d.errorf(x.pos, x.rec, "Accounts", ErrBadValue, "a user needs Accounts= (its tenants)")
	case u.DefaultAccount == "":
		u.DefaultAccount = u.Accounts[0]
	}
	x.number("Share", &u.Share)
	x.tres("GrpTRES", &u.GrpTRES)
	x.limit("MaxJobs", &u.MaxJobs, Unlimited-1)
	x.limit("MaxSubmitJobs", &u.MaxSubmitJobs, Unlimited-1)
	return u
}

func validAccountName(s string) bool {
	return s != "" && !strings.ContainsAny(s, ",:/ \t\"'")
}

// Tenant returns the tenant called name (case-insensitive, as accounts are).
func (c *Config) Tenant(name string) (*Tenant, bool) {
	name = strings.ToLower(name)
	for i := range c.Tenants {
		if c.Tenants[i].Name == name {
			return &c.Tenants[i], true
		}
	}
	return nil, false
}

// User returns the UserName line of login.
func (c *Config) User(login string) (*User, bool) {
	for i := range c.Users {
		if c.Users[i].Name == login {
			return &c.Users[i], true
		}
	}
	return nil, false
}

// UserLimits are the caps on one user's jobs inside one tenant.
type UserLimits struct {
	// TRES caps the user's concurrent use; a name that is absent is not
	// limited.
	TRES       TRES
	Jobs       int64 // running jobs
	SubmitJobs int64 // pending and running jobs
}

// UserLimits returns the effective caps of user in tenant: the tenant's
// per-user defaults (MaxTRESPerUser, MaxJobsPerUser, MaxSubmitJobsPerUser),
// each overridden by the user's own GrpTRES entry, MaxJobs or
// MaxSubmitJobs where the UserName line sets it.
func (c *Config) UserLimits(user, tenant string) UserLimits {
	l := UserLimits{TRES: TRES{}, Jobs: Unlimited, SubmitJobs: Unlimited}
	if t, ok := c.Tenant(tenant); ok {
		l.TRES = t.MaxTRESPerUser.Clone()
		l.Jobs, l.SubmitJobs = t.MaxJobsPerUser, t.MaxSubmitJobsPerUser
	}
	if l.TRES == nil {
		l.TRES = TRES{}
	}
	u, ok := c.User(user)
	if !ok {
		return l
	}
	for k, v := range u.GrpTRES {
		l.TRES[k] = v
	}
	if u.MaxJobs != Inherit {
		l.Jobs = u.MaxJobs
	}
	if u.MaxSubmitJobs != Inherit {
		l.SubmitJobs = u.MaxSubmitJobs
	}
	return l
}
