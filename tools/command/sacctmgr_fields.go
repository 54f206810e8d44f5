package command

import (
	"slices"
	"strconv"
	"strings"
)

// mgrField is one sacctmgr column: its name (the header), Slurm's
// default width, and other names format= accepts for it.
type mgrField struct {
	name    string
	width   int
	aliases []string
}

// mgrCol is a column as printed: a field with its width (negative: left
// justified).
type mgrCol struct {
	f     *mgrField
	width int
}

// mgrFields are the columns every entity draws from, in Slurm's matching
// order (the first whose name a format token abbreviates wins).
var mgrFields = []mgrField{
	{"Account", 10, []string{"acct", "accounts"}},
	{"Admin", 9, []string{"adminlevel"}},
	{"Cluster", 10, []string{"clusters"}},
	{"ControlHost", 15, nil},
	{"ControlPort", 12, nil},
	{"Def Acct", 10, []string{"defaultaccount", "defacct"}},
	{"Def QOS", 9, []string{"defaultqos", "defqos"}},
	{"Descr", 20, []string{"description"}},
	{"Flags", 40, nil},
	{"GraceTime", 10, nil},
	{"GrpCPUMins", 11, nil},
	{"GrpCPUs", 8, nil},
	{"GrpJobs", 7, nil},
	{"GrpMem", 7, nil},
	{"GrpNodes", 8, nil},
	{"GrpSubmit", 9, []string{"grpsubmitjobs"}},
	{"GrpTRES", 13, nil},
	{"GrpTRESMins", 13, nil},
	{"GrpTRESRunMins", 13, []string{"grptresrunmin"}},
	{"GrpWall", 11, nil},
	{"ID", 6, nil},
	{"LFT", 6, nil},
	{"MaxCPUMins", 11, nil},
	{"MaxCPUs", 8, nil},
	{"MaxJobs", 7, nil},
	{"MaxJobsPA", 9, nil},
	{"MaxJobsPU", 9, []string{"maxjobsperuser"}},
	{"MaxNodes", 8, nil},
	{"MaxSubmit", 9, []string{"maxsubmitjobs"}},
	{"MaxSubmitPA", 11, nil},
	{"MaxSubmitPU", 11, []string{"maxsubmitjobsperuser"}},
	{"MaxTRES", 13, nil},
	{"MaxTRESMins", 13, nil},
	{"MaxTRESPA", 13, []string{"maxtresperaccount"}},
	{"MaxTRESPerNode", 14, nil},
	{"MaxTRESPU", 13, []string{"maxtresperuser"}},
	{"MaxWall", 11, []string{"maxwalldurationperjob"}},
	{"MinTRES", 13, nil},
	{"Name", 10, nil},
	{"Org", 20, []string{"organization"}},
	{"ParentID", 8, nil},
	{"ParentName", 10, []string{"parent"}},
	{"Partition", 10, nil},
	{"Preempt", 10, nil},
	{"PreemptExemptTime", 19, nil},
	{"PreemptMode", 11, nil},
	{"Priority", 10, nil},
	{"QOS", 20, nil},
	{"RGT", 6, nil},
	{"RPC", 5, []string{"rpcversion"}},
	{"Share", 9, []string{"fairshare", "shares"}},
	{"Type", 8, nil},
	{"UsageFactor", 11, nil},
	{"UsageThres", 10, []string{"usagethreshold"}},
	{"User", 10, []string{"users"}},
}

// mgrFieldByToken finds the field a format token names: a name or alias
// in full, else the first name it abbreviates (two letters at least),
// the entity's own columns (own) first.
func mgrFieldByToken(tok string, own []string) *mgrField {
	for i := range mgrFields {
		f := &mgrFields[i]
		if strings.EqualFold(tok, strings.ReplaceAll(f.name, " ", "")) || strings.EqualFold(tok, f.name) {
			return f
		}
		for _, a := range f.aliases {
			if strings.EqualFold(tok, a) {
				return f
			}
		}
	}
	if len(tok) < 2 {
		return nil
	}
	// The entity's own columns first: "us" is User for associations.
	for _, pass := range []bool{true, false} {
		for i := range mgrFields {
			f := &mgrFields[i]
			if slices.Contains(own, f.name) == pass && mgrIs(tok, strings.ReplaceAll(f.name, " ", ""), 2) {
				return f
			}
		}
	}
	return nil
}

// mgrColumns resolves the columns: format= if given, else the entity's
// defaults. A token Slurm does not know stops the command with its text.
func mgrColumns(ent *mgrEntity, c *mgrCond) ([]mgrCol, bool) {
	spec := ent.def
	switch {
	case len(c.format) > 0:
		spec = strings.Join(c.format, ",")
	case c.withAssoc && ent.assocDef != "":
		spec = ent.assocDef
	}
	// Empty items are skipped, but a format of none is an unknown field.
	toks := slices.DeleteFunc(strings.Split(spec, ","), func(s string) bool { return s == "" })
	if len(toks) == 0 {
		toks = []string{""}
	}
	var cols []mgrCol
	for _, tok := range toks {
		name, width, hasWidth := strings.Cut(tok, "%")
		f := mgrFieldByToken(name, strings.Split(ent.def+","+ent.assocDef, ","))
		if f == nil || !ent.allows(f.name) {
			c.w.raw("Unknown field '" + name + "'\n")
			return nil, true
		}
		col := mgrCol{f: f, width: f.width}
		if wd, ok := ent.widths[f.name]; ok {
			col.width = wd
		}
		if f.name == "Account" && c.tree {
			col.width = -20
		}
		if hasWidth {
			if n, err := strconv.Atoi(width); err == nil && n != 0 {
				col.width = n
			}
		}
		cols = append(cols, col)
	}
	return cols, false
}

// printMgr prints rows as Slurm's print_fields does: right-justified
// columns (left with a negative width) cut with '+', or '|'-separated.
func printMgr(w *output, p *mgrParams, cols []mgrCol, rows []mgrRow) {
	line := func(val func(c mgrCol) string, cut bool) {
		var b strings.Builder
		for i, c := range cols {
			v := val(c)
			if p.delim != "" {
				b.WriteString(v)
				if i < len(cols)-1 || p.trailing {
					b.WriteString(p.delim)
				}
				continue
			}
			b.WriteString(mgrPad(v, c.width, cut) + " ")
		}
		w.printf("%s\n", b.String())
	}
	if !p.noHeader {
		line(func(c mgrCol) string { return c.f.name }, false)
		if p.delim == "" {
			line(func(c mgrCol) string { return strings.Repeat("-", mgrAbs(c.width)) }, false)
		}
	}
	for _, r := range rows {
		line(func(c mgrCol) string { return r[c.f.name] }, true)
	}
}

// mgrPad fits s to width: longer values lose their tail, marked with '+'
// (headers are cut without it).
func mgrPad(s string, width int, mark bool) string {
	n := mgrAbs(width)
	if len(s) > n {
		if mark && n > 0 {
			s = s[:n-1] + "+"
		} else {
			s = s[:n]
		}
	}
	fill := strings.Repeat(" ", n-len(s))
	if width < 0 {
		return s + fill
	}
	return fill + s
}

func mgrAbs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
