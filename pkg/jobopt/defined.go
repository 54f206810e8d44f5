package jobopt

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// DefinedOption is one line of the "defined options" block sbatch -v
// prints to standard error before it submits: the option's long name and
// its value as Slurm writes it back.
type DefinedOption struct {
	Name  string
	Value string
}

// definedLayout is how sbatch -v prints --begin and --deadline.
const definedLayout = "2006-01-02T15:04:05"

// definedRule is the dashed line around the option lines of the block.
const definedRule = "-------------------- --------------------"

// DefinedLines is the block sbatch -v prints to standard error before it
// submits, as Slurm 22.05 prints it: each option set, in option-table
// order, with its value as Slurm writes it back. The plugin-loading lines
// that follow it in Slurm are left out: Loam has no plugins.
func DefinedLines(prog string, opts []DefinedOption) []string {
	out := []string{prog + ": defined options", prog + ": " + definedRule}
	for _, o := range opts {
		out = append(out, fmt.Sprintf("%s: %-20s: %s", prog, o.Name, o.Value))
	}
	return append(out, prog+": "+definedRule, prog+": end of defined options")
}

// afterDefined puts the -v block before the lines of err, an error found
// in the checks Slurm makes after printing it (an invalid GRES mix).
func (b *builder) afterDefined(cl *CommandLine, err error) error {
	je, ok := err.(*Error)
	if !ok || b.verbose == 0 {
		return err
	}
	lines := DefinedLines(b.p.prog(), b.defined(b.p.table(), cl.Wrap))
	return &Error{Code: je.Code, Lines: append(lines, je.Lines...)}
}

// defined lists the options the submission set (from the command line,
// the script or the environment), in table order, one line per option
// even when it has several names (--tasks-per-node is ntasks-per-node).
func (b *builder) defined(t *Table, wrap *string) []DefinedOption {
	var out []DefinedOption
	seen := map[string]bool{}
	for _, o := range definedOrder(t) {
		if seen[o.key()] {
			continue
		}
		seen[o.key()] = true
		v, ok := b.lastValue(t, o.key())
		if val, set := b.definedValue(o, v, ok, wrap); set {
			out = append(out, DefinedOption{Name: o.Long, Value: val})
		}
	}
	return out
}

// definedOrder is t's options in Slurm's order, which is sbatch's table
// order: srun's and salloc's tables add and move options, and an option
// sbatch lacks goes where its name falls alphabetically.
func definedOrder(t *Table) []*Option {
	at := make(map[string]int, len(sbatchTable.opts)) // first place of each name
	for i, s := range sbatchTable.opts {
		if _, ok := at[s.Long]; !ok {
			at[s.Long] = i
		}
	}
	rank := func(o *Option) int {
		r := -1
		if i, ok := at[o.Long]; ok {
			r = 2 * i
		}
		if before, ok := definedBefore[o.Long]; ok {
			if i, ok := at[before]; ok && (r < 0 || 2*i-1 < r) {
				r = 2*i - 1
			}
		}
		if r >= 0 {
			return r
		}
		for i, s := range sbatchTable.opts {
			if s.Long > o.Long {
				return 2*i - 1
			}
		}
		return 2 * len(sbatchTable.opts)
	}
	// Ranked once each: sbatch pays for this on every submission.
	type ranked struct {
		o    *Option
		rank int
	}
	rs := make([]ranked, len(t.opts))
	for i, o := range t.opts {
		rs[i] = ranked{o, rank(o)}
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].rank < rs[j].rank })
	out := make([]*Option, len(rs))
	for i, r := range rs {
		out[i] = r.o
	}
	return out
}

// definedBefore places options sbatch lacks that Slurm's table does not
// list by name: srun -v prints jobid before job-name.
var definedBefore = map[string]string{"jobid": "job-name"}

// lastValue is the value the option with key last got, from any of its
// names.
func (b *builder) lastValue(t *Table, key string) (value, bool) {
	for _, o := range t.opts {
		if o.key() != key {
			continue
		}
		if v, ok := b.passed[o.Long]; ok {
			return v, true
		}
	}
	return value{}, false
}

// definedValue formats one option as sbatch -v does; set is false for an
// option nobody gave.
func (b *builder) definedValue(o *Option, v value, ok bool, wrap *string) (string, bool) {
	switch o.Long {
	case "verbose":
		return fmt.Sprint(b.verbose), b.verbose > 0
	case "quiet":
		return "set", b.quiet
	case "switches":
		return b.definedSwitches()
	case "wrap":
		if wrap == nil {
			return "", false
		}
		return *wrap, true
	}
	if !ok || v.reset {
		return "", false
	}
	if f, found := definedFormats[o.Long]; found {
		return f(b, v), true
	}
	if o.Arg == NoArg || (o.Arg == OptionalArg && !v.has) {
		return "set", true
	}
	return v.str, true
}

// definedFormats are the options whose value sbatch -v writes back in a
// form of its own rather than as given.
var definedFormats = map[string]func(b *builder, v value) string{
	"begin":         func(b *builder, v value) string { return definedTime(b.req.Begin) },
	"deadline":      func(b *builder, v value) string { return definedTime(b.req.Deadline) },
	"time":          func(b *builder, v value) string { return definedLimit(b.req.TimeLimit) },
	"time-min":      func(b *builder, v value) string { return definedLimit(b.req.TimeMin) },
	"mem":           definedMemory,
	"mem-per-cpu":   definedMemory,
	"mem-per-gpu":   definedMemory,
	"tmp":           definedMemory,
	"output":        definedPath,
	"error":         definedPath,
	"input":         definedPath,
	"chdir":         func(b *builder, v value) string { return b.req.WorkDir },
	"nodes":         definedNodes,
	"gres":          definedGRES,
	"nice":          definedNice,
	"open-mode":     func(b *builder, v value) string { return strings.ToLower(v.str[:1]) },
	"signal":        definedSignal,
	"exclusive":     definedExclusive,
	"oversubscribe": func(b *builder, v value) string { return "oversubscribe" },
	"requeue":       func(b *builder, v value) string { return "requeue" },
	"no-requeue":    func(b *builder, v value) string { return "no-requeue" },
	"get-user-env":  definedGetUserEnv,
	"kill-on-bad-exit": func(b *builder, v value) string {
		if !v.has {
			return "1"
		}
		return v.str
	},
	"cpu-freq": func(b *builder, v value) string { return definedWords(v.str, cpuFreqWords) },
	"profile":  definedProfile,
}

// definedTime prints a --begin or --deadline time in local time.
func definedTime(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.Format(definedLayout)
}

// definedLimit prints a time limit in whole minutes, as days-hh:mm:ss.
func definedLimit(d *time.Duration) string {
	if d == nil {
		return ""
	}
	if *d == 0 {
		return "UNLIMITED"
	}
	return slurmtime.FormatDuration(*d)
}

// definedMemory prints megabytes as Slurm's mbytes_to_str does: in the
// largest unit that keeps the number whole, with no suffix for megabytes
// ("100", "1536", "2G", "1T"). Zero prints as "0?", as it does in Slurm.
func definedMemory(b *builder, v value) string {
	mb, err := resource.ParseMemory(v.str)
	if err != nil {
		return v.str
	}
	units := "MGTP"
	i := 0
	for ; i < len(units); i++ {
		if mb != 0 && mb%1024 != 0 {
			break
		}
		mb /= 1024
	}
	switch {
	case i == len(units):
		return fmt.Sprintf("%d?", mb)
	case i == 0:
		return fmt.Sprint(mb)
	}
	return fmt.Sprintf("%d%c", mb, units[i])
}

// definedPath prints a file name as sbatch holds it: "none" is /dev/null
// and a relative name is under the job's working directory. srun keeps
// the name as given.
func definedPath(b *builder, v value) string {
	if b.p.prog() != "sbatch" {
		return v.str
	}
	s := fileName(v.str)
	if path.IsAbs(s) {
		return s
	}
	return path.Join(b.req.WorkDir, s)
}

// definedNodes prints the node count once sbatch's checks have run: one
// number, or a range when the maximum is larger.
func definedNodes(b *builder, v value) string {
	r := &b.req
	if r.MaxNodes > r.MinNodes {
		return fmt.Sprintf("%d-%d", r.MinNodes, r.MaxNodes)
	}
	return fmt.Sprint(r.MinNodes)
}

// definedGRES writes each GRES with Slurm's "gres:" prefix.
func definedGRES(b *builder, v value) string {
	if strings.EqualFold(v.str, "none") {
		return v.str
	}
	parts := strings.Split(v.str, ",")
	for i, p := range parts {
		if !strings.HasPrefix(p, "gres:") {
			parts[i] = "gres:" + p
		}
	}
	return strings.Join(parts, ",")
}

func definedNice(b *builder, v value) string {
	if b.req.Nice == nil {
		return v.str
	}
	return fmt.Sprint(*b.req.Nice)
}

func definedSignal(b *builder, v value) string {
	if b.req.Signal == nil {
		return v.str
	}
	return b.req.Signal.String()
}

// definedExclusive prints --exclusive's mode in lower case; with no value
// it is "exclusive".
func definedExclusive(b *builder, v value) string {
	if !v.has {
		return "exclusive"
	}
	return strings.ToLower(v.str)
}

// definedGetUserEnv prints --get-user-env as Slurm does: "0" with no value.
func definedGetUserEnv(b *builder, v value) string {
	if !v.has {
		return "0"
	}
	return v.str
}

// cpuFreqWords are --cpu-freq's keywords as Slurm writes them back.
var cpuFreqWords = []string{"Low", "Medium", "Highm1", "High", "Conservative", "OnDemand",
	"Performance", "PowerSave", "UserSpace", "SchedUtil"}

// definedWords writes each keyword of s (split at "-" and ":") in Slurm's
// spelling; numbers and unknown words are left as given.
func definedWords(s string, words []string) string {
	var b strings.Builder
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '-' && s[i] != ':' {
			continue
		}
		b.WriteString(spelling(s[start:i], words))
		if i < len(s) {
			b.WriteByte(s[i])
		}
		start = i + 1
	}
	return b.String()
}

func spelling(w string, words []string) string {
	for _, k := range words {
		if strings.EqualFold(w, k) {
			return k
		}
	}
	return w
}

// profileWords are --profile's types in the order Slurm writes them.
var profileWords = []string{"Energy", "Lustre", "Network", "Task"}

// definedProfile prints --profile as Slurm does: "None", "All", or the
// types in Slurm's order ("all" is every type).
func definedProfile(b *builder, v value) string {
	var out []string
	for _, w := range profileWords {
		for _, p := range strings.Split(v.str, ",") {
			if strings.EqualFold(p, w) || strings.EqualFold(p, "all") {
				out = append(out, w)
				break
			}
		}
	}
	if len(out) == 0 {
		return spelling(v.str, []string{"None"})
	}
	return strings.Join(out, ",")
}
