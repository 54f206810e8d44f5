package command

import (
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// mgrRow is one printed row: values by field name.
type mgrRow map[string]string

// mgrEntity is what list can show: its columns, conditions and rows.
type mgrEntity struct {
	def, assocDef string         // default columns, and with withassoc
	fields        []string       // columns format= may name (nil: all)
	keys          []string       // conditions it takes
	names         bool           // bare words are names
	setHint       string         // the word Slurm's "Use keyword 'set'" line ends with
	remote        bool           // needs the controller's tree
	widths        map[string]int // Slurm's widths where they differ by entity
	rows          func(t *api.AssocResponse, c *mgrCond) []mgrRow
}

func (e *mgrEntity) allows(name string) bool {
	return e.fields == nil || slices.Contains(e.fields, name)
}

const (
	mgrAssocDef = "Cluster,Account,User,Partition,Share,Priority,GrpJobs,GrpTRES,GrpSubmit,GrpWall," +
		"GrpTRESMins,MaxJobs,MaxTRES,MaxTRESPerNode,MaxSubmit,MaxWall,MaxTRESMins,QOS,Def QOS,GrpTRESRunMins"
	mgrUserAssocDef = "User,Def Acct,Admin,Cluster,Account,Partition,Share,Priority,MaxJobs,MaxNodes," +
		"MaxCPUs,MaxSubmit,MaxWall,MaxCPUMins,QOS,Def QOS"
	mgrAcctAssocDef = "Account,Descr,Org,Cluster,ParentName,User,Share,Priority,GrpJobs,GrpNodes,GrpCPUs," +
		"GrpMem,GrpSubmit,GrpWall,GrpCPUMins,MaxJobs,MaxNodes,MaxCPUs,MaxSubmit,MaxWall,MaxCPUMins,QOS,Def QOS"
	mgrQOSDef = "Name,Priority,GraceTime,Preempt,PreemptExemptTime,PreemptMode,Flags,UsageThres,UsageFactor," +
		"GrpTRES,GrpTRESMins,GrpTRESRunMins,GrpJobs,GrpSubmit,GrpWall,MaxTRES,MaxTRESPerNode,MaxTRESMins," +
		"MaxWall,MaxTRESPU,MaxJobsPU,MaxSubmitPU,MaxTRESPA,MaxJobsPA,MaxSubmitPA,MinTRES"
	mgrClusterDef = "Cluster,ControlHost,ControlPort,RPC,Share,GrpJobs,GrpTRES,GrpSubmit,MaxJobs,MaxTRES," +
		"MaxSubmit,MaxWall,QOS,Def QOS"
)

var mgrAssocKeys = []string{"accounts", "acct", "clusters", "format", "partitions", "users", "ids"}

var mgrEntityTable = map[string]*mgrEntity{
	"associations": {def: mgrAssocDef, keys: mgrAssocKeys, remote: true, rows: mgrAssocRows},
	"users": {def: "User,Def Acct,Admin", assocDef: mgrUserAssocDef, names: true, setHint: "value",
		keys:   []string{"accounts", "acct", "clusters", "defaultaccount", "format", "names", "partitions", "users"},
		remote: true, rows: mgrUserRows},
	"accounts": {def: "Account,Descr,Org", assocDef: mgrAcctAssocDef, names: true, setHint: "value",
		keys:   []string{"accounts", "acct", "clusters", "descriptions", "format", "names", "organizations", "users"},
		remote: true, rows: mgrAccountRows},
	"clusters": {def: mgrClusterDef, names: true, setHint: "value", keys: []string{"clusters", "format", "names"},
		remote: true, rows: mgrClusterRows},
	"qos": {def: mgrQOSDef, names: true, setHint: "SLURM_PRINT_VALUE", keys: []string{"format", "ids", "names"},
		rows: mgrQOSRows},
	"tres": {def: "Type,Name,ID", widths: map[string]int{"Name": 15}, fields: []string{"Type", "Name", "ID"}, setHint: "value",
		keys: []string{"format", "ids", "names", "type"}, rows: mgrTRESRows},
}

// mgrAssoc is one association of the tree in Slurm's hierarchical order:
// root, then each account (by name) with its users (by name).
type mgrAssoc struct {
	account, user string
	depth         int
	row           mgrRow
}

// mgrTree flattens t into associations with their column values.
func mgrTree(t *api.AssocResponse) []mgrAssoc {
	base := func(account, user string) mgrRow {
		return mgrRow{"Cluster": t.ClusterName, "Account": account, "User": user, "QOS": "normal"}
	}
	root := base("root", "")
	root["Share"] = "1"
	out := []mgrAssoc{{account: "root", depth: 0, row: root}}
	accts := slices.Clone(t.Accounts)
	slices.SortFunc(accts, func(a, b api.AssocAccount) int { return strings.Compare(a.Name, b.Name) })
	users := slices.Clone(t.Users)
	slices.SortFunc(users, func(a, b api.AssocUser) int { return strings.Compare(a.Name, b.Name) })
	for _, a := range accts {
		r := base(a.Name, "")
		r["ParentName"] = "root"
		r["Share"] = mgrShare(a.Share)
		mgrTRESCols(r, a.GrpTRES)
		r["GrpJobs"], r["GrpSubmit"] = mgrCount(a.GrpJobs), mgrCount(a.GrpSubmit)
		r["MaxJobs"], r["MaxSubmit"] = mgrCount(a.MaxJobs), mgrCount(a.MaxSubmit)
		out = append(out, mgrAssoc{account: a.Name, depth: 1, row: r})
		for _, u := range users {
			for _, ua := range u.Assocs {
				if ua.Account != a.Name {
					continue
				}
				r := base(a.Name, u.Name)
				r["Share"] = mgrShare(ua.Share)
				mgrTRESCols(r, ua.GrpTRES)
				r["MaxJobs"], r["MaxSubmit"] = mgrCount(ua.MaxJobs), mgrCount(ua.MaxSubmit)
				out = append(out, mgrAssoc{account: a.Name, user: u.Name, depth: 2, row: r})
			}
		}
	}
	return out
}

// mgrTRESCols sets GrpTRES and its old per-resource columns.
func mgrTRESCols(r mgrRow, grp string) {
	r["GrpTRES"] = grp
	for _, kv := range strings.Split(grp, ",") {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "cpu":
			r["GrpCPUs"] = v
		case "node":
			r["GrpNodes"] = v
		case "mem":
			r["GrpMem"] = v
		}
	}
}

func mgrShare(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func mgrCount(n int64) string {
	if n < 0 {
		return ""
	}
	return strconv.FormatInt(n, 10)
}

// mgrAssocRows is list associations: the tree filtered; with a user
// filter Slurm orders by user.
func mgrAssocRows(t *api.AssocResponse, c *mgrCond) []mgrRow {
	var sel []mgrAssoc
	for _, a := range mgrTree(t) {
		if mgrMatch(c.accounts, a.account) && mgrMatch(c.users, a.user) &&
			mgrMatchFold(c.clusters, t.ClusterName) && mgrMatch(c.partitions, "") && mgrMatch(c.ids, "") {
			sel = append(sel, a)
		}
	}
	if c.users != nil {
		slices.SortStableFunc(sel, func(a, b mgrAssoc) int { return strings.Compare(a.user, b.user) })
	}
	out := make([]mgrRow, len(sel))
	for i, a := range sel {
		out[i] = a.row
		if c.tree {
			out[i] = mgrWith(a.row, mgrRow{"Account": strings.Repeat(" ", mgrDepth(sel, a)) + a.account})
		}
	}
	return out
}

// mgrDepth is a's indentation in tree: one space for each of its
// ancestors (root, its account) that the listing holds.
func mgrDepth(sel []mgrAssoc, a mgrAssoc) int {
	n := 0
	for _, p := range sel {
		switch {
		case p.user != "" || p.depth >= a.depth:
		case p.account == "root", p.account == a.account:
			n++
		}
	}
	return n
}

// mgrUserRows is list users, with each user's associations by -s.
func mgrUserRows(t *api.AssocResponse, c *mgrCond) []mgrRow {
	users := slices.Clone(t.Users)
	slices.SortFunc(users, func(a, b api.AssocUser) int { return strings.Compare(a.Name, b.Name) })
	names := c.names
	if c.users != nil {
		names = append(slices.Clone(names), c.users...)
	}
	tree := mgrTree(t)
	var out []mgrRow
	for _, u := range users {
		if !mgrMatch(names, u.Name) || !mgrMatch(c.defAccounts, u.DefaultAccount) {
			continue
		}
		admin := "None"
		if u.Admin {
			admin = "Administrator"
		}
		var assocs []mgrRow
		for _, a := range tree {
			if a.user == u.Name && mgrMatch(c.accounts, a.account) && mgrMatchFold(c.clusters, t.ClusterName) &&
				mgrMatch(c.partitions, "") {
				assocs = append(assocs, a.row)
			}
		}
		if len(assocs) == 0 && (c.accounts != nil || c.partitions != nil) {
			continue
		}
		if !c.withAssoc {
			assocs = []mgrRow{{}}
		}
		for _, r := range assocs {
			r = mgrWith(r, mgrRow{"User": u.Name, "Def Acct": u.DefaultAccount, "Admin": admin})
			out = append(out, r)
		}
	}
	return out
}

// mgrAccountRows is list accounts, with each account's associations by -s.
func mgrAccountRows(t *api.AssocResponse, c *mgrCond) []mgrRow {
	descr := map[string]string{"root": "default root account"}
	names := []string{"root"}
	if t.PrivateAccounts { // PrivateData=accounts: not even the root account
		names = nil
	}
	for _, a := range t.Accounts {
		names = append(names, a.Name)
		descr[a.Name] = a.Description
		if a.Description == "" {
			descr[a.Name] = a.Name
		}
	}
	slices.Sort(names)
	filter := c.names
	if c.accounts != nil {
		filter = append(slices.Clone(filter), c.accounts...)
	}
	tree := mgrTree(t)
	var out []mgrRow
	for _, n := range names {
		own := mgrRow{"Account": n, "Descr": descr[n], "Org": n}
		if !mgrMatch(filter, n) || !mgrMatchFold(c.descrs, own["Descr"]) || !mgrMatchFold(c.orgs, n) {
			continue
		}
		if !c.withAssoc {
			out = append(out, own)
			continue
		}
		for _, a := range tree {
			if a.account == n && mgrMatch(c.users, a.user) && mgrMatchFold(c.clusters, t.ClusterName) {
				out = append(out, mgrWith(a.row, own))
			}
		}
	}
	return out
}

// mgrWith is r with over's values on top.
func mgrWith(r, over mgrRow) mgrRow {
	out := mgrRow{}
	for k, v := range r {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

// mgrRPC is the protocol version of Slurm 22.05, whose commands Loam's
// answer as.
const mgrRPC = "9728"

// mgrClusterRows is list clusters: the one cluster Loam runs.
func mgrClusterRows(t *api.AssocResponse, c *mgrCond) []mgrRow {
	filter := c.names
	if c.clusters != nil {
		filter = append(slices.Clone(filter), c.clusters...)
	}
	if !mgrMatchFold(filter, t.ClusterName) {
		return nil
	}
	port := ""
	if t.ControlPort > 0 {
		port = strconv.Itoa(t.ControlPort)
	}
	return []mgrRow{{"Cluster": t.ClusterName, "ControlHost": t.ControlHost, "ControlPort": port,
		"RPC": mgrRPC, "Share": "1", "QOS": "normal"}}
}

// mgrQOSRows is list qos: Loam has no QOS objects, only Slurm's default
// "normal" that every job gets.
func mgrQOSRows(_ *api.AssocResponse, c *mgrCond) []mgrRow {
	if !mgrMatchFold(c.names, "normal") || !mgrMatch(c.ids, "1") {
		return nil
	}
	return []mgrRow{{"Name": "normal", "Priority": "0", "GraceTime": "00:00:00", "PreemptMode": "cluster",
		"UsageFactor": "1.000000", "ID": "1"}}
}

// mgrTRESRows is list tres; name= matches a TRES's name, or its type
// when it has none ("gpu", "cpu"; not "gres/gpu").
func mgrTRESRows(_ *api.AssocResponse, c *mgrCond) []mgrRow {
	var out []mgrRow
	for _, tr := range accountingTRES { // tres_ids.go
		name := tr.name
		if name == "" {
			name = tr.typ
		}
		id := strconv.Itoa(tr.id)
		if !mgrMatchFold(c.types, tr.typ) || !mgrMatchFold(c.names, name) || !mgrMatch(c.ids, id) {
			continue
		}
		out = append(out, mgrRow{"Type": tr.typ, "Name": tr.name, "ID": id})
	}
	return out
}
