package api

// PathAssocs takes AssocQuery and answers AssocResponse: tenants.conf as
// Slurm's association tree (sacctmgr show ...). Loam has no accounting
// database; tenants.conf is the one source, changed by editing it and
// scontrol reconfigure.
const PathAssocs = "/v1/assocs"

// AssocQuery asks for the whole tree; sacctmgr filters it.
type AssocQuery struct{}

// NoLimit marks a count limit that is not set.
const NoLimit int64 = -1

// AssocResponse is the cluster and its tenants.conf, limits resolved: a
// user's limits in an account are what applies to it there (the tenant's
// per-user default where the UserName line sets none).
type AssocResponse struct {
	ClusterName string         `json:"cluster_name"`
	ControlHost string         `json:"control_host,omitempty"`
	ControlPort int            `json:"control_port,omitempty"`
	Accounts    []AssocAccount `json:"accounts"`
	Users       []AssocUser    `json:"users"`
	// PrivateAccounts is set when PrivateData=accounts hides every account
	// definition from the caller, the root account included.
	PrivateAccounts bool `json:"private_accounts,omitempty"`
}

// AssocAccount is one TenantName line. Counts are NoLimit when unset;
// GrpTRES is in Slurm's TRES form ("gres/gpu=16"), empty when unset.
type AssocAccount struct {
	Name        string  `json:"name"`
	Description string  `json:"description,omitempty"`
	Share       float64 `json:"share"`
	GrpTRES     string  `json:"grp_tres,omitempty"`
	GrpJobs     int64   `json:"grp_jobs"`
	GrpSubmit   int64   `json:"grp_submit"`
	// MaxJobs and MaxSubmit are the per-user defaults (MaxJobsPerUser,
	// MaxSubmitJobsPerUser): Slurm's MaxJobs on an account association.
	MaxJobs   int64 `json:"max_jobs"`
	MaxSubmit int64 `json:"max_submit"`
}

// AssocUser is one UserName line with its association in each account.
type AssocUser struct {
	Name           string           `json:"name"`
	DefaultAccount string           `json:"default_account"`
	Admin          bool             `json:"admin,omitempty"`
	Assocs         []AssocUserLimit `json:"assocs"`
}

// AssocUserLimit is a user's association with one account: its share and
// the limits that apply to it there.
type AssocUserLimit struct {
	Account   string  `json:"account"`
	Share     float64 `json:"share"`
	GrpTRES   string  `json:"grp_tres,omitempty"`
	MaxJobs   int64   `json:"max_jobs"`
	MaxSubmit int64   `json:"max_submit"`
}
