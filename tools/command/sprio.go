package command

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

var sprioOpts = []optSpec{
	{long: "noheader", short: 'h'},
	{long: "jobs", short: 'j', arg: optionalArg},
	{long: "long", short: 'l'},
	{long: "norm", short: 'n'},
	{long: "format", short: 'o', arg: requiredArg},
	{long: "sort", short: 'S', arg: requiredArg},
	{long: "partition", short: 'p', arg: requiredArg},
	{long: "user", short: 'u', arg: requiredArg},
	{long: "users", short: 'u', arg: requiredArg},
	{long: "weights", short: 'w'},
	{long: "verbose", short: 'v'},
	{long: "version", short: 'V'},
	{long: "cluster", short: 'M', arg: requiredArg},
	{long: "clusters", short: 'M', arg: requiredArg},
	{long: "federation"},
	{long: "local"},
	{long: "sib", id: "sibling"},
	{long: "sibling"},
	{long: "help"},
	{long: "usage"},
	{long: "history", loamOnly: true},
}

const sprioUsage = `Usage: sprio [-j jid[s]] [-u user_name[s]] [-o format] [-p partitions]
   [--federation] [--local] [--sibling] [--usage] [-hlnvVw]
`

// sprioParams are sprio's options.
type sprioParams struct {
	noHeader, long, norm, weights, history bool
	sibling, formatSet, jobFlag            bool
	format, sort                           string
	verbose                                int
	// As given, for -v.
	jobsArg, partsArg, usersArg string
	uids                        []uint32
	q                           api.PrioQuery
}

// Sprio runs sprio: the priority factors of pending jobs, as Slurm's
// sprio prints them, with Loam's AGING and COMPENSATION factors, and
// --history (Loam) for the audit trail of the jobs given with -j.
func Sprio(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "sprio")
	p, code, done := parseSprio(env, w, args)
	if done {
		return w.exit(code)
	}
	lc, ok := dialLive(ctx, env, w)
	if !ok {
		return w.exit(1)
	}
	resp, err := lc.Priorities(ctx, &p.q)
	if err != nil {
		w.errf("Couldn't get priority factors from controller: %s", errDetail(err))
		return w.exit(1)
	}
	if p.history {
		printPrioHistory(w, env, p, resp)
		return w.exit(0)
	}
	return w.exit(printSprio(w, p, resp))
}

// parseSprio reads the command line; done says sprio already finished
// (help, usage, version, a bad option) with code.
func parseSprio(env *Env, w *output, args []string) (*sprioParams, int, bool) {
	opts, operands, err := getopt(env.prog("sprio"), args, sprioOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return nil, 1, true
	}
	p := &sprioParams{}
	for _, o := range opts {
		switch o.id {
		case "h":
			p.noHeader = true
		case "j":
			p.jobFlag = true
			if o.has && !p.addJobs(w, o.val) {
				return nil, 1, true
			}
		case "l":
			p.long = true
		case "n":
			p.norm = true
		case "o":
			p.format, p.formatSet = o.val, true
		case "S":
			p.sort = o.val
		case "p":
			p.partsArg, p.q.Partitions = o.val, splitList(o.val)
		case "u":
			p.setUsers(env, w, o.val)
		case "v":
			p.verbose++
		case "sibling", "sib":
			p.sibling = true
		case "w":
			p.weights = true
		case "history":
			p.history, p.q.History = true, true
		case "V":
			w.printf("%s\n", versionLine)
			return nil, 0, true
		case "help":
			w.printf("%s", sprioHelp)
			return nil, 0, true
		case "usage":
			w.printf("%s", sprioUsage)
			return nil, 0, true
		}
	}
	if p.long && p.formatSet {
		w.raw("sprio: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.\n")
		return nil, 1, true
	}
	if f, ok := env.Getenv("SPRIO_FORMAT"); ok && !p.long && !p.formatSet {
		p.format, p.formatSet = f, true
	}
	if len(operands) > 0 && p.jobFlag {
		// As Slurm's sprio: "-j 12" takes the next operand.
		if !p.addJobs(w, operands[0]) {
			return nil, 1, true
		}
		operands = operands[1:]
	}
	if len(operands) > 0 {
		w.errf("Unrecognized option: %s", operands[0])
		w.printf("%s", sprioUsage)
		return nil, 1, true
	}
	if p.verbose > 0 {
		sprioOptions(w, p)
	}
	if p.history && len(p.q.JobIDs) == 0 {
		w.errf("--history needs the jobs to show: -j <job_id_list>")
		return nil, 1, true
	}
	return p, 0, false
}

func splitList(s string) []string { return strtok(s, ",") }

// addJobs reads a -j list: job ids or heterogeneous components ("12+1"
// is job 13), as Slurm's sprio (which refuses array tasks, "12_3");
// false after a bad one, reported.
func (p *sprioParams) addJobs(w *output, list string) bool {
	p.jobsArg = list
	for _, s := range splitList(list) {
		id, ok := sprioJobID(s)
		if !ok {
			w.errf("Invalid job id: %s", s)
			return false
		}
		p.q.JobIDs = append(p.q.JobIDs, id)
	}
	return true
}

func sprioJobID(s string) (uint32, bool) {
	head, off := s, uint64(0)
	if i := strings.IndexByte(s, '+'); i > 0 {
		tail, err := strconv.ParseUint(s[i+1:], 10, 32)
		if err != nil {
			return 0, false
		}
		head, off = s[:i], tail
	}
	n, err := strconv.ParseUint(head, 10, 32)
	if err != nil || n == 0 || n+off > math.MaxUint32 {
		return 0, false
	}
	return uint32(n + off), true
}

// setUsers reads a -u list, replacing an earlier one as Slurm does; an
// unknown user is reported and matches nothing.
func (p *sprioParams) setUsers(env *Env, w *output, list string) {
	p.usersArg, p.q.Users, p.uids = list, nil, nil
	for _, u := range splitList(list) {
		uid, ok := env.Users.UID(u)
		if !ok {
			w.errf("Invalid user: %s\n", u)
			continue
		}
		p.q.Users, p.uids = append(p.q.Users, u), append(p.uids, uid)
	}
	if len(p.q.Users) == 0 {
		p.q.Users = []string{"\x00none"}
	}
}

// sprio's fields: Slurm's letters, and Loam's G/g (aging) and E/e
// (compensation). Account and QOS name have no letter, as in Slurm 22.05
// (its sprio rejects %o and %n).
const (
	spJobID = iota
	spPartition
	spUser
	spAccount
	spQOSName
	spPrio
	spPrioNorm
	spSite
	spAge
	spAgeNorm
	spAssoc
	spAssocNorm
	spFS
	spFSNorm
	spJobSize
	spJobSizeNorm
	spPart
	spPartNorm
	spQOS
	spQOSNorm
	spNice
	spTRES
	spTRESNorm
	spCluster
	spAging
	spAgingNorm
	spComp
	spCompNorm
)

var sprioLetters = map[byte]int{
	'i': spJobID, 'r': spPartition, 'u': spUser, 'Y': spPrio, 'y': spPrioNorm,
	'S': spSite, 'A': spAge, 'a': spAgeNorm, 'B': spAssoc, 'b': spAssocNorm, 'F': spFS, 'f': spFSNorm,
	'J': spJobSize, 'j': spJobSizeNorm, 'P': spPart, 'p': spPartNorm, 'Q': spQOS, 'q': spQOSNorm,
	'N': spNice, 'T': spTRES, 't': spTRESNorm, 'c': spCluster, 'G': spAging, 'g': spAgingNorm,
	'E': spComp, 'e': spCompNorm,
}

var sprioTitles = []string{"JOBID", "PARTITION", "USER", "ACCOUNT", "QOS_NAME", "PRIORITY", "PRIORITY", "SITE",
	"AGE", "AGE", "ASSOC", "ASSOC", "FAIRSHARE", "FAIRSHARE", "JOBSIZE", "JOBSIZE", "PARTITION", "PARTITION",
	"QOS", "QOS", "NICE", "TRES", "TRES", "CLUSTER", "AGING", "AGING", "COMPENSATION", "COMPENSATION"}

// sprioFormat is the format sprio uses without -o: Slurm's, keeping only
// the factors with a weight, plus Loam's aging and compensation columns
// when the configuration uses them.
func sprioFormat(p *sprioParams, wt api.PriorityWeights) string {
	switch {
	case p.long && p.norm:
		return "%.15i %9r %.8u %10y %10a %10b %10f %10j %10p %10q %20t" + loamCols(wt, true)
	case p.long:
		return "%.15i %9r %.8u %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10Q %.11N %.20T" + loamCols(wt, false)
	}
	f := "%.15i %9r"
	if p.sibling {
		f += " %.8c"
	}
	if len(p.q.Users) > 0 {
		f += " %.8u"
	}
	cols := []struct {
		w       float64
		weighed string
		norm    string
	}{{wt.Age, " %.10A", " %10a"}, {wt.Fairshare, " %.10F", " %10f"}, {wt.JobSize, " %.10J", " %10j"},
		{wt.Partition, " %.10P", " %10p"}, {wt.QOS, " %.10Q", " %10q"}}
	if p.norm {
		f += " %10y"
	} else {
		f += " %.10Y %.10S"
	}
	for _, c := range cols {
		if c.w != 0 && p.norm {
			f += c.norm
		} else if c.w != 0 {
			f += c.weighed
		}
	}
	return f + loamCols(wt, p.norm)
}

// loamCols are Loam's columns, shown when the configuration uses them
// (a partition with an aging cap, a compensation weight), so a cluster
// configured as Slurm prints what Slurm prints.
func loamCols(wt api.PriorityWeights, norm bool) string {
	var f string
	if wt.AgingCap > 0 {
		f += map[bool]string{false: " %.10G", true: " %10g"}[norm]
	}
	if wt.Compensation > 0 {
		f += map[bool]string{false: " %.12E", true: " %12e"}[norm]
	}
	return f
}

// printSprio prints the jobs (or with -w the weights) in p's format and
// returns the exit code: 1 for a bad -S, reported after the header as
// Slurm's sprio does.
func printSprio(w *output, p *sprioParams, resp *api.PrioResponse) int {
	format := p.format
	if !p.formatSet {
		format = sprioFormat(p, resp.Weights)
	}
	items, bad := parseSprioFormat(format)
	for _, b := range bad {
		w.errf("Invalid job format specification: %s", b)
	}
	jobs := slices.Clone(resp.Jobs)
	slices.SortStableFunc(jobs, func(a, b api.JobPriority) int { return cmp.Compare(a.JobID, b.JobID) })
	if len(p.q.JobIDs) > 0 && len(jobs) == 0 && !p.weights {
		w.printf("Unable to find jobs matching user/id(s) specified\n")
		return 0
	}
	if !p.noHeader {
		w.buf = appendRow(w.buf, items, func(k int) string { return sprioTitles[k] })
	}
	if p.weights {
		w.buf = appendRow(w.buf, items, func(k int) string { return weightField(k, resp.Weights) })
		return 0
	}
	if c, ok := sortSprio(jobs, p.sort); !ok {
		w.flush()
		w.errf("Invalid sort specification: %c", c)
		return 1
	}
	for i := range jobs {
		j := &jobs[i]
		w.buf = appendRow(w.buf, items, func(k int) string { return prioField(k, j, resp.Weights) })
	}
	return 0
}

// appendRow prints one line: each item padded as Slurm's _print_str does
// (cut to its width), then its suffix.
func appendRow(b []byte, items []item, val func(k int) string) []byte {
	for _, it := range items {
		if it.field >= 0 {
			b = pad(b, val(it.field), it.width, it.right, true)
		}
		b = append(b, it.suffix...)
	}
	return append(b, '\n')
}

func weighted(v float64) string { return strconv.FormatFloat(v+0, 'f', 0, 64) }

func normalized(v, weight float64) string {
	if weight == 0 {
		return "0.0000000"
	}
	return strconv.FormatFloat(v/weight, 'f', 7, 64)
}

// prioField prints field k of one job.
func prioField(k int, j *api.JobPriority, wt api.PriorityWeights) string {
	f := &j.Factors
	switch k {
	case spJobID:
		return u32(j.JobID)
	case spPartition:
		return j.Partition
	case spUser:
		return j.User
	case spAccount:
		return j.Account
	case spQOSName:
		return j.QOS
	case spPrio:
		return strconv.FormatUint(uint64(uint32(j.Priority)), 10)
	case spPrioNorm:
		return prioNorm(j)
	case spSite:
		return strconv.FormatInt(int64(f.Site), 10)
	case spAssoc:
		return "0"
	case spNice:
		return strconv.Itoa(j.Nice)
	case spTRES, spTRESNorm:
		return ""
	case spCluster:
		return "(null)" // as Slurm outside a federation
	case spAssocNorm:
		return "0.0000000"
	}
	return factorField(k, f, wt)
}

// factorField prints a weighted or normalized factor.
func factorField(k int, f *api.PriorityFactors, wt api.PriorityWeights) string {
	switch k {
	case spAge:
		return weighted(f.Age)
	case spAgeNorm:
		return normalized(f.Age, wt.Age)
	case spFS:
		return weighted(f.Fairshare)
	case spFSNorm:
		return normalized(f.Fairshare, wt.Fairshare)
	case spJobSize:
		return weighted(f.JobSize)
	case spJobSizeNorm:
		return normalized(f.JobSize, wt.JobSize)
	case spPart:
		return weighted(f.Partition)
	case spPartNorm:
		return normalized(f.Partition, wt.Partition)
	case spQOS:
		return weighted(f.QOS)
	case spQOSNorm:
		return normalized(f.QOS, wt.QOS)
	case spAging:
		return weighted(f.Aging)
	case spAgingNorm:
		return normalized(f.Aging, wt.AgingCap)
	case spComp:
		return weighted(f.Compensation)
	case spCompNorm:
		return normalized(f.Compensation, wt.Compensation)
	}
	return ""
}

// weightField prints field k of sprio -w's Weights line.
func weightField(k int, wt api.PriorityWeights) string {
	switch k {
	case spJobID:
		return "Weights"
	case spSite:
		return "1"
	case spAge, spAgeNorm:
		return weighted(wt.Age)
	case spAssoc, spAssocNorm:
		return "0"
	case spFS, spFSNorm:
		return weighted(wt.Fairshare)
	case spJobSize, spJobSizeNorm:
		return weighted(wt.JobSize)
	case spPart, spPartNorm:
		return weighted(wt.Partition)
	case spQOS, spQOSNorm:
		return weighted(wt.QOS)
	case spTRES:
		return "(null)"
	case spAging, spAgingNorm:
		return weighted(wt.AgingCap)
	case spComp, spCompNorm:
		return weighted(wt.Compensation)
	}
	return ""
}

// printPrioHistory prints sprio --history: one line per recorded change,
// oldest first, with the weighted factors after it and the reason.
func printPrioHistory(w *output, env *Env, p *sprioParams, resp *api.PrioResponse) {
	if len(resp.History) == 0 {
		w.printf("No priority changes recorded for the jobs specified\n")
		return
	}
	tf := newTimeFormat(env, env.Now())
	if !p.noHeader {
		w.printf("%15s %19s %10s %10s %10s %10s %10s %10s %10s %10s %12s %10s %s\n", "JOBID", "TIME", "OLD", "NEW",
			"AGE", "FAIRSHARE", "JOBSIZE", "PARTITION", "QOS", "AGING", "COMPENSATION", "NICE", "REASON")
	}
	for _, h := range resp.History {
		f := &h.Factors
		w.printf("%15d %19s %10d %10d %10s %10s %10s %10s %10s %10s %12s %10s %s\n", h.JobID,
			tf.appendTime(nil, h.Time, "Unknown"), uint32(h.Old), uint32(h.New), weighted(f.Age), weighted(f.Fairshare),
			weighted(f.JobSize), weighted(f.Partition), weighted(f.QOS), weighted(f.Aging), weighted(f.Compensation),
			weighted(f.Nice), h.Reason)
	}
}
