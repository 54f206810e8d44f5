package command

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// userUse is one user's (or one account's, User empty) TRES-seconds in
// a report window, one per -T TRES; secs is the first TRES's, which
// orders the lines.
type userUse struct {
	account, user string
	secs          int64
	tres          []int64
}

// add sums another line's use into u.
func (u *userUse) add(o userUse) {
	u.secs += o.secs
	if u.tres == nil {
		u.tres = make([]int64, len(o.tres))
	}
	for i, s := range o.tres {
		u.tres[i] += s
	}
}

// usersReport is sreport cluster AccountUtilizationByUser,
// UserUtilizationByAccount and user TopUsage: CPU time per account and
// user, from the accounting records of the jobs that ran in the window.
func usersReport(kind string) sreportRun {
	return func(ctx context.Context, env *Env, w *output, p *sreportParams) int {
		fields, bad := usersFormat(p, kind)
		if bad != "" {
			w.raw(" Unknown field '" + bad + "'\n")
			return 1
		}
		u, resp, ok := fetchReport(ctx, env, w, p, true) // sreport_util.go
		if !ok {
			return 1
		}
		uses := cpuUse(resp.Jobs, p.q.Start, min(p.q.End, max(resp.Now, p.q.Start)), p.q.Accounts, p.users, p.tres)
		title := map[string]string{"abu": "Cluster/Account/User Utilization", "uba": "Cluster/User/Account Utilization",
			"top": "Top " + strconv.Itoa(p.topCount) + " Users"}[kind]
		p.rangeSecs = true
		reportHeader(w, env, p, title, p.q.Start, p.q.End, utilUnitLine(p.unit, p.tresGiven))
		if kind == "top" && p.group {
			kind = "topgroup"
		}
		cols, rows := usersTable(p, fields, u, usersRows(kind, uses, p.topCount))
		printTable(w, p, cols, rows)
		return 0
	}
}

// usersField is a column of the user reports; usage columns size
// themselves (their %width is ignored, as in Slurm).
type usersField struct {
	key   string
	col   reportColumn
	usage bool
}

var usersFields = []usersField{
	{"account", reportColumn{"Account", 15}, false}, {"cluster", reportColumn{"Cluster", 9}, false},
	{"energy", reportColumn{"Energy", 8}, true}, {"login", reportColumn{"Login", 9}, false},
	{"proper", reportColumn{"Proper Name", 15}, false}, {"used", reportColumn{"Used", 8}, true},
}

// usersFormat reads Format= (or the report's default) into fields. As
// for cluster utilization, -T adds TRES Name, and drops Energy, only in
// the default columns.
func usersFormat(p *sreportParams, kind string) ([]usersField, string) {
	format := p.format
	if format == "" {
		format = "Cluster,Login,Proper,Account,Used,Energy"
		if kind == "abu" {
			format = "Cluster,Account,Login,Proper,Used,Energy"
		}
		if p.tresGiven {
			format = strings.Replace(format, "Used,Energy", "TRESName,Used", 1)
		}
	}
	var out []usersField
	for _, f := range splitList(format) {
		name, width, hasWidth := strings.Cut(strings.ToLower(f), "%")
		if name == "tresname" && p.format == "" {
			out = append(out, usersField{"tresname", reportColumn{"TRES Name", 14}, false})
			continue
		}
		i := slices.IndexFunc(usersFields, func(u usersField) bool { return name != "" && strings.HasPrefix(u.key, name) })
		if i < 0 {
			return nil, f
		}
		c := usersFields[i]
		if hasWidth && !c.usage {
			n, _ := strtol(width)
			c.col.width = int(n)
		}
		out = append(out, c)
	}
	return out, ""
}

// usersTable lays the lines out, a line per -T TRES.
func usersTable(p *sreportParams, fields []usersField, u *api.UtilReport, lines []userUse) ([]reportColumn, [][]string) {
	var rows [][]string
	most := int64(0)
	for _, r := range lines {
		for i, t := range p.tres {
			capacity := u.CPUCapacity
			if t == "gres/gpu" {
				capacity = u.GPUCapacity
			}
			most = max(most, r.tres[i])
			vals := map[string]string{"account": r.account, "cluster": u.Cluster, "login": r.user, "proper": r.user,
				"tresname": t, "used": scaled(r.tres[i], capacity, p.unit), "energy": scaled(0, capacity, p.unit)}
			row := make([]string, len(fields))
			for k, f := range fields {
				row[k] = vals[f.key]
			}
			rows = append(rows, row)
		}
	}
	cols := make([]reportColumn, len(fields))
	for i, f := range fields {
		cols[i] = f.col
		if f.usage {
			cols[i].width = usageWidth(cols[i].width, most, p.unit)
		}
	}
	return cols, rows
}

// cpuUse sums each account's and user's TRES-seconds inside the window;
// running jobs count up to end, which is no later than now.
func cpuUse(jobs []api.AcctJob, start, end int64, accounts, users, tres []string) map[[2]string][]int64 {
	out := map[[2]string][]int64{}
	for i := range jobs {
		j := &jobs[i]
		if j.StartTime == 0 || (len(accounts) > 0 && !slices.Contains(accounts, strings.ToLower(j.Account))) ||
			(len(users) > 0 && !slices.Contains(users, j.UserName)) {
			continue
		}
		to := j.EndTime
		if to == 0 || to > end {
			to = end
		}
		secs := to - max(j.StartTime, start)
		if secs <= 0 {
			continue
		}
		k := [2]string{j.Account, j.UserName}
		if out[k] == nil {
			out[k] = make([]int64, len(tres))
		}
		for i, t := range tres {
			n := j.CPUs
			if t == "gres/gpu" {
				n = j.GPUs
			}
			out[k][i] += secs * int64(n)
		}
	}
	return out
}

// usersRows orders the lines: by account with the root and account
// totals first (abu), or by usage, largest first (uba; top, the first
// top of them; topgroup, a line per user with its tenants comma-joined).
func usersRows(kind string, uses map[[2]string][]int64, top int) []userUse {
	var users []userUse
	for k, s := range uses {
		users = append(users, userUse{k[0], k[1], s[0], s})
	}
	byUse := func(a, b userUse) int {
		return cmp.Or(cmp.Compare(b.secs, a.secs), strings.Compare(a.user, b.user), strings.Compare(a.account, b.account))
	}
	switch kind {
	case "uba":
		slices.SortFunc(users, byUse)
		return users
	case "top":
		slices.SortFunc(users, byUse)
		return users[:min(len(users), top)]
	case "topgroup":
		slices.SortFunc(users, func(a, b userUse) int { return strings.Compare(a.account, b.account) })
		perUser := map[string]int{}
		var out []userUse
		for _, u := range users {
			if i, ok := perUser[u.user]; ok {
				out[i].add(u)
				out[i].account += "," + u.account
				continue
			}
			perUser[u.user] = len(out)
			out = append(out, userUse{account: u.account, user: u.user})
			out[len(out)-1].add(u)
		}
		slices.SortFunc(out, byUse)
		return out[:min(len(out), top)]
	}
	slices.SortFunc(users, func(a, b userUse) int {
		return cmp.Or(strings.Compare(a.account, b.account), strings.Compare(a.user, b.user))
	})
	if len(users) == 0 {
		return nil // Slurm prints no root line for an empty window
	}
	root := userUse{account: "root"}
	var out []userUse
	acct := 0 // the current account's line
	for i, u := range users {
		root.add(u)
		if i == 0 || users[i-1].account != u.account {
			acct = len(out)
			out = append(out, userUse{account: u.account})
		}
		out[acct].add(u)
		out = append(out, u)
	}
	return append([]userUse{root}, out...)
}
