package slurmconf

import "strings"

// PrivateData: what a user who is neither root nor SlurmUser may not see
// of other users (jobs, usage, users, accounts, events) or at all (nodes,
// partitions, reservations they cannot use).

// PrivateData is the set of kinds PrivateData hides, keyed by the name
// scontrol show config prints ("jobs", "usage", ...).
type PrivateData map[string]bool

// The kinds of PrivateData (privateDataOrder's names).
const (
	PrivateAccounts     = "accounts"
	PrivateEvents       = "events"
	PrivateJobs         = "jobs"
	PrivateNodes        = "nodes"
	PrivatePartitions   = "partitions"
	PrivateReservations = "reservations"
	PrivateUsage        = "usage"
	PrivateUsers        = "users"
)

// Has reports whether kind is private.
func (p PrivateData) Has(kind string) bool { return p[kind] }

// parsePrivateData reads PrivateData as Slurm does: a word sets the kind
// whose stem it contains ("account" for accounts), "all" sets every one,
// and a word naming none is ignored.
func parsePrivateData(v string) PrivateData {
	shown := showPrivateData(v)
	if shown == "none" {
		return nil
	}
	p := PrivateData{}
	for _, k := range strings.Split(shown, ",") {
		p[k] = true
	}
	return p
}

// decodePrivateData reads the cluster key.
func decodePrivateData(x *dec, c *Config) {
	if f, ok := x.get("PrivateData"); ok {
		c.PrivateData = parsePrivateData(f.Value)
	}
}
