package command

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// parseSprioFormat reads an -o format as Slurm 22.05's sprio does: the
// text before the first '%' is a prefix, each "%[.][width]letter" a
// field followed by its text; an unknown letter is reported and dropped
// with its text (sprio prints nothing for it).
func parseSprioFormat(format string) (items []item, bad []string) {
	if i := strings.IndexByte(format, '%'); i != 0 {
		if i < 0 {
			i = len(format)
		}
		if i > 0 {
			items = append(items, item{field: -1, suffix: format[:i]})
		}
		format = format[i:]
	}
	for _, tok := range strtok(format, "%") {
		right, width, rest := widthPrefix(tok)
		var c byte
		if rest != "" {
			c, rest = rest[0], rest[1:]
		}
		k, ok := sprioLetters[c]
		if !ok {
			bad = append(bad, string(c))
			continue
		}
		items = append(items, item{field: k, width: width, right: right, suffix: rest})
	}
	return items, bad
}

// sortSprio orders the rows by an -S specification as Slurm's sprio
// does: the letters applied from the last to the first (so the first is
// the primary key), each ascending or, after '-', descending. A letter
// it does not know is an error naming it.
func sortSprio(rows []api.JobPriority, spec string) (bad byte, ok bool) {
	for i := len(spec) - 1; i >= 0; i-- {
		c := spec[i]
		if c == ',' || c == '-' || c == '+' {
			continue
		}
		key := sprioSortKey(c)
		if key == nil {
			return c, false
		}
		desc := i > 0 && spec[i-1] == '-'
		slices.SortStableFunc(rows, func(a, b api.JobPriority) int {
			if desc {
				return key(&b, &a)
			}
			return key(&a, &b)
		})
	}
	return 0, true
}

// sprioSortKey compares two rows by sort letter c; nil: not a sort letter.
// Weighted and normalized letters sort alike; as in Slurm 22.05, account
// and QOS name (o, n) are not sort letters. G/g and E/e are Loam's.
func sprioSortKey(c byte) func(a, b *api.JobPriority) int {
	num := func(f func(j *api.JobPriority) float64) func(a, b *api.JobPriority) int {
		return func(a, b *api.JobPriority) int { return cmp.Compare(f(a), f(b)) }
	}
	switch c {
	case 'c':
		return func(a, b *api.JobPriority) int { return 0 }
	case 'i':
		return func(a, b *api.JobPriority) int { return cmp.Compare(a.JobID, b.JobID) }
	case 'N':
		return func(a, b *api.JobPriority) int { return cmp.Compare(a.Nice, b.Nice) }
	case 'r':
		return func(a, b *api.JobPriority) int { return strings.Compare(a.Partition, b.Partition) }
	case 'u':
		return func(a, b *api.JobPriority) int { return strings.Compare(a.User, b.User) }
	case 'A', 'a':
		return num(func(j *api.JobPriority) float64 { return j.Factors.Age })
	case 'F', 'f':
		return num(func(j *api.JobPriority) float64 { return j.Factors.Fairshare })
	case 'J', 'j':
		return num(func(j *api.JobPriority) float64 { return j.Factors.JobSize })
	case 'P', 'p':
		return num(func(j *api.JobPriority) float64 { return j.Factors.Partition })
	case 'Q', 'q':
		return num(func(j *api.JobPriority) float64 { return j.Factors.QOS })
	case 'T', 't':
		return func(a, b *api.JobPriority) int { return 0 }
	case 'Y', 'y':
		return num(prioTotal)
	case 'G', 'g':
		return num(func(j *api.JobPriority) float64 { return j.Factors.Aging })
	case 'E', 'e':
		return num(func(j *api.JobPriority) float64 { return j.Factors.Compensation })
	}
	return nil
}

// prioTotal is the job's priority before truncation, as Slurm's sprio
// computes it from the factors: their sum less nice, at least 1.
func prioTotal(j *api.JobPriority) float64 {
	f := &j.Factors
	if *f == (api.PriorityFactors{Nice: f.Nice}) {
		return max(1, float64(j.Priority)) // no factors reported
	}
	return max(1, f.Age+f.Fairshare+f.JobSize+f.Partition+f.QOS+f.Aging+f.Compensation-float64(j.Nice))
}

// prioNorm is %y: the priority over the largest one, to 14 places.
func prioNorm(j *api.JobPriority) string {
	return strconv.FormatFloat(prioTotal(j)/math.MaxUint32, 'f', 14, 64)
}

// sprioOptions is what sprio -v prints before the table.
func sprioOptions(w *output, p *sprioParams) {
	str := func(s string, set bool) string {
		if !set {
			return "(null)"
		}
		return s
	}
	w.printf("-----------------------------\n")
	w.printf("format     = %s\n", str(p.format, p.formatSet))
	w.printf("job_flag   = %d\n", map[bool]int{false: 0, true: 1}[p.jobFlag])
	w.printf("jobs       = %s\n", str(p.jobsArg, p.jobsArg != ""))
	w.printf("partition  = %s\n", str(p.partsArg, p.partsArg != ""))
	w.printf("users      = %s\n", str(p.usersArg, p.usersArg != ""))
	w.printf("verbose    = %d\n", p.verbose)
	if p.verbose > 1 {
		for i, id := range p.q.JobIDs {
			w.printf("job_list[%d] = %d\n", i, id)
		}
		for i, uid := range p.uids {
			w.printf("user_list[%d] = %d\n", i, uid)
		}
	}
	w.printf("-----------------------------\n\n\n")
}
