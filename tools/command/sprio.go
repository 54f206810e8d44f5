package command

import (
	"cmp"
	"context"
	"slices"
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
)

var sprioOpts = []optSpec{
	{long: "noheader", short: 'h'},
	{long: "jobs", short: 'j', arg: optionalArg},
	{long: "long", short: 'l'},
	{long: "norm", short: 'n'},
	{long: "format", short: 'o', arg: requiredArg},
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
	{long: "sibling"},
	{long: "help"},
	{long: "usage"},
	{long: "history"},
}

const sprioUsage = `Usage: sprio [-j jid[s]] [-u user_name[s]] [-o format] [-p partitions]
   [--federation] [--local] [--sibling] [--usage] [-hlnvVw]
`

// sprioParams are sprio's options.
type sprioParams struct {
	noHeader, long, norm, weights, history bool
	format                                 string
	q                                      api.PrioQuery
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
	printSprio(w, p, resp)
	return w.exit(0)
}

// parseSprio reads the command line; done says sprio already finished
// (help, usage, version, a bad option) with code.
func parseSprio(env *Env, w *output, args []string) (*sprioParams, int, bool) {
	opts, operands, err := getopt("sprio", args, sprioOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return nil, 1, true
	}
	p := &sprioParams{}
	if f, ok := env.Getenv("SPRIO_FORMAT"); ok {
		p.format = f
	}
	for _, o := range opts {
		switch o.id {
		case "h":
			p.noHeader = true
		case "j":
			if !o.has && len(operands) > 0 {
				// As Slurm's sprio: "-j 12" takes the next operand.
				o.val, operands = operands[0], operands[1:]
			}
			for _, s := range splitList(o.val) {
				n, err := strconv.ParseUint(s, 10, 32)
				if err != nil {
					w.errf("Invalid job id: %s", s)
					return nil, 1, true
				}
				p.q.JobIDs = append(p.q.JobIDs, uint32(n))
			}
		case "l":
			p.long = true
		case "n":
			p.norm = true
		case "o":
			p.format = o.val
		case "p":
			p.q.Partitions = append(p.q.Partitions, splitList(o.val)...)
		case "u":
			for _, u := range splitList(o.val) {
				if _, ok := env.Users.UID(u); !ok {
					w.errf("Invalid user: %s\n", u)
					continue
				}
				p.q.Users = append(p.q.Users, u)
			}
			if len(p.q.Users) == 0 {
				p.q.Users = []string{"\x00none"}
			}
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
	if len(operands) > 0 {
		w.errf("Unrecognized option: %s", operands[0])
		w.printf("%s", sprioUsage)
		return nil, 1, true
	}
	if p.history && len(p.q.JobIDs) == 0 {
		w.errf("--history needs the jobs to show: -j <job_id_list>")
		return nil, 1, true
	}
	return p, 0, false
}

func splitList(s string) []string { return strtok(s, ",") }

// sprio's fields: Slurm's letters, and Loam's G/g (aging) and E/e
// (compensation).
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
	'i': spJobID, 'r': spPartition, 'u': spUser, 'o': spAccount, 'n': spQOSName, 'Y': spPrio, 'y': spPrioNorm,
	'S': spSite, 'A': spAge, 'a': spAgeNorm, 'B': spAssoc, 'b': spAssocNorm, 'F': spFS, 'f': spFSNorm,
	'J': spJobSize, 'j': spJobSizeNorm, 'P': spPart, 'p': spPartNorm, 'Q': spQOS, 'q': spQOSNorm,
	'N': spNice, 'T': spTRES, 't': spTRESNorm, 'c': spCluster, 'G': spAging, 'g': spAgingNorm,
	'E': spComp, 'e': spCompNorm,
}

var sprioTitles = []string{"JOBID", "PARTITION", "USER", "ACCOUNT", "QOS_NAME", "PRIORITY", "PRIORITY", "SITE",
	"AGE", "AGE", "ASSOC", "ASSOC", "FAIRSHARE", "FAIRSHARE", "JOBSIZE", "JOBSIZE", "PARTITION", "PARTITION",
	"QOS", "QOS", "NICE", "TRES", "TRES", "CLUSTER", "AGING", "AGING", "COMPENSATION", "COMPENSATION"}

type sprioNamer struct{}

func (sprioNamer) letter(c byte) (int, bool) { k, ok := sprioLetters[c]; return k, ok }
func (sprioNamer) long(string) (int, bool)   { return 0, false }

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

// printSprio prints the jobs (or with -w the weights) in p's format.
func printSprio(w *output, p *sprioParams, resp *api.PrioResponse) {
	format := p.format
	if format == "" {
		format = sprioFormat(p, resp.Weights)
	}
	items, bad := parseShortFormat(format, sprioNamer{})
	for _, b := range bad {
		w.errf("Invalid job format specification: %s", b)
	}
	jobs := slices.Clone(resp.Jobs)
	slices.SortStableFunc(jobs, func(a, b api.JobPriority) int { return cmp.Compare(a.JobID, b.JobID) })
	if len(p.q.JobIDs) > 0 && len(jobs) == 0 && !p.weights {
		w.printf("Unable to find jobs matching user/id(s) specified\n")
		return
	}
	if !p.noHeader {
		w.buf = appendRow(w.buf, items, func(k int) string { return sprioTitles[k] })
	}
	if p.weights {
		w.buf = appendRow(w.buf, items, func(k int) string { return weightField(k, resp.Weights) })
		return
	}
	for i := range jobs {
		j := &jobs[i]
		w.buf = appendRow(w.buf, items, func(k int) string { return prioField(k, j, resp.Weights) })
	}
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
		return strconv.FormatFloat(float64(uint32(j.Priority))/float64(0xffffffff), 'f', 8, 64)
	case spSite, spAssoc:
		return "0"
	case spNice:
		return strconv.Itoa(j.Nice)
	case spTRES, spTRESNorm, spCluster:
		return ""
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
	case spTRES, spTRESNorm:
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
