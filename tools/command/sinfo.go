package command

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
)

// Default sinfo formats (Slurm's -O specifications).
const (
	sinfoDefault   = "partition:9 ,available:.5 ,time:.10 ,nodes:.6 ,statecompact:.6 ,nodelist:0"
	sinfoLong      = "partition:9 ,available:.5 ,time:.10 ,size:.10 ,root:.4 ,oversubscribe:.8 ,groups:.10 ,nodes:.6 ,statelong:.11 ,nodelist:0"
	sinfoNode      = "nodelist:0 ,nodes:.6 ,partition:.9 ,statecompact:6"
	sinfoNodeLong  = "nodelist:0 ,nodes:.6 ,partition:.9 ,statelong:.11 ,cpus:4 ,socketcorethread:.8 ,memory:.6 ,disk:.8 ,weight:.6 ,features:.8 ,reason:20"
	sinfoReasons   = "reason:20 ,user:9 ,timestamp:19 ,nodelist:0"
	sinfoReasonsL  = "reason:20 ,userlong:12 ,timestamp:19 ,statecompact:6 ,nodelist:0"
	sinfoSummarize = "partition:9 ,available:.5 ,time:.10 ,nodeaiot:.16 ,nodelist:0"
	minFieldSize   = 9
)

var sinfoOpts = []optSpec{
	{long: "all", short: 'a'},
	{long: "dead", short: 'd'},
	{long: "exact", short: 'e'},
	{long: "federation"},
	{long: "help"},
	{long: "hide"},
	{long: "iterate", short: 'i', arg: requiredArg},
	{long: "local"},
	{long: "long", short: 'l'},
	{long: "cluster", short: 'M', arg: requiredArg},
	{long: "clusters", short: 'M', arg: requiredArg},
	{long: "nodes", short: 'n', arg: requiredArg},
	{long: "noconvert"},
	{long: "noheader", short: 'h'},
	{long: "Node", short: 'N'},
	{long: "format", short: 'o', arg: requiredArg},
	{long: "Format", short: 'O', arg: requiredArg},
	{long: "partition", short: 'p', arg: requiredArg},
	{long: "responding", short: 'r'},
	{long: "list-reasons", short: 'R'},
	{long: "summarize", short: 's'},
	{long: "sort", short: 'S', arg: requiredArg},
	{long: "states", short: 't', arg: requiredArg},
	{long: "reservation", short: 'T'},
	{long: "usage"},
	{long: "verbose", short: 'v'},
	{long: "version", short: 'V'},
	{long: "json"},
	{long: "yaml"},
}

// sinfoParams is a parsed sinfo command line.
type sinfoParams struct {
	format        string
	long          bool // -O (or a default format)
	longOutput    bool // -l
	nodeFlag      bool
	reasons       bool
	summarize     bool
	exact         bool
	noHeader      bool
	resvList      bool // -T
	dead          bool
	responding    bool
	iterate       int
	all           bool // -a: hidden partitions too
	partitions    []string
	nodes         []string
	states        []string
	statesAnd     bool
	sort          string
	sortSet       bool // -S or SINFO_SORT, even empty (no sorting)
	formatSet     bool // -o or -O, even empty (no fields)
	partFieldSize bool
	nodeFieldSize bool
	noconvert     bool // --noconvert: counts without K, M, ...
	json, yaml    bool // --json or --yaml: the last one given wins
	items         []item
	// optAll and optPart: -a and -p were given, which Slurm's sinfo
	// refuses together (SINFO_ALL and SINFO_PARTITION too).
	optAll, optPart bool
}

// Sinfo runs sinfo with args and returns its exit status.
func Sinfo(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "sinfo")
	p, code, done := parseSinfo(env, w, args)
	if done {
		return w.exit(code)
	}
	if p.json || p.yaml {
		return w.exit(sinfoData(ctx, env, w, p.yaml))
	}
	// Slurm's sinfo parses its format with the options, so a bad one is
	// reported first, and with -T too.
	p.items = sinfoItems(w, p.format, p.long)
	c, err := env.Dial(ctx)
	if err != nil {
		w.errf("%s", errText(err))
		return w.exit(1)
	}
	for {
		now := env.Now()
		if !p.noHeader && (p.iterate > 0 || p.longOutput) {
			w.printf("%s\n", ctime(now))
		}
		code := 0
		if p.resvList {
			code = sinfoResvs(ctx, env, w, c, p.noHeader, now)
		} else {
			code = sinfoOnce(ctx, env, w, c, p, now)
		}
		if p.iterate <= 0 {
			return w.exit(code)
		}
		w.printf("\n")
		w.flush()
		if env.Sleep(ctx, time.Duration(p.iterate)*time.Second) != nil {
			return w.exit(code)
		}
	}
}

func parseSinfo(env *Env, w *output, args []string) (*sinfoParams, int, bool) {
	if clustersFromEnv(env, w) {
		return nil, 1, true
	}
	_, envAll := env.Getenv("SINFO_ALL")
	envPart, envPartSet := env.Getenv("SINFO_PARTITION")
	if envAll && envPartSet {
		w.errf("Conflicting options, SINFO_ALL and SINFO_PARTITION, specified. Please choose one or the other.")
		return nil, 1, true
	}
	// sinfo reads no operands and, unlike squeue, ignores them.
	opts, _, err := getopt(env.prog("sinfo"), args, sinfoOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return nil, 1, true
	}
	p := &sinfoParams{all: envAll}
	if envPartSet {
		p.partitions = strtok(envPart, ",")
	}
	if v, ok := env.Getenv("SINFO_SORT"); ok {
		p.sort, p.sortSet = v, true
	}
	for _, o := range opts {
		if stop, code := p.apply(w, o); stop {
			return nil, code, true
		}
	}
	if p.longOutput && p.formatSet {
		w.raw("sinfo: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.\n")
		return nil, 1, true
	}
	if p.optAll && p.optPart {
		w.errf("Conflicting options, -a and -p, specified. Please choose one or the other.")
		return nil, 1, true
	}
	p.defaultFormat(env)
	if p.reasons && p.states == nil {
		p.states = []string{"DOWN", "FAIL", "DRAIN"}
	}
	return p, 0, false
}

func (p *sinfoParams) apply(w *output, o option) (stop bool, code int) {
	switch o.id {
	case "a":
		p.partitions, p.all, p.optAll = nil, true, true
	case "d":
		p.dead = true
	case "e":
		p.exact = true
	case "h":
		p.noHeader = true
	case "i":
		n, _ := strtol(o.val)
		if n <= 0 {
			w.errf("Error: invalid entry for --iterate=%s", o.val)
			return true, 1
		}
		p.iterate = n
	case "l":
		p.longOutput = true
	case "n":
		names, err := sinfoNodes(w, o.val)
		if err != nil {
			w.errf("'%s' invalid entry for --nodes", o.val)
			return true, 1
		}
		p.nodes = names
	case "M":
		refuseClusters(w, o.val, false)
		return true, 1
	case "N":
		p.nodeFlag = true
	case "noconvert":
		p.noconvert = true
	case "o":
		// -o and -O share one format in Slurm's sinfo, read as -O's
		// names once any -O was given: "-O a -o b" parses b as names.
		p.format, p.formatSet = o.val, true
	case "O":
		p.format, p.long, p.formatSet = o.val, true, true
	case "p":
		p.partitions, p.optPart = strtok(o.val, ","), true
	case "r":
		p.responding = true
	case "R":
		p.reasons = true
	case "s":
		p.summarize = true
	case "S":
		p.sort, p.sortSet = o.val, true
	case "t":
		p.statesAnd = strings.Contains(o.val, "&")
		p.states = nil
		for _, s := range strings.FieldsFunc(o.val, func(r rune) bool { return r == ',' || r == '&' }) {
			if strings.EqualFold(s, "all") {
				p.states = nil
				break
			}
			key, ok := sinfoStateKey(s)
			if !ok {
				w.errf("Bad state string: \"%s\"", s)
				w.errf("valid states: %s", sinfoValidStates)
				return true, 1
			}
			p.states = append(p.states, key)
		}
	case "T":
		// The administrators' reservations (sinfo_advresv.go); the
		// scheduler's own are in scontrol show reservation.
		p.resvList = true
	case "V":
		w.printf("%s\n", versionLine)
		return true, 0
	case "help":
		w.printf("%s", sinfoHelp)
		return true, 0
	case "usage":
		w.printf("%s", sinfoUsage)
		return true, 0
	case "json", "yaml":
		p.json, p.yaml = o.id == "json", o.id == "yaml"
	}
	return false, 0
}

// defaultFormat picks Slurm's format for the mode when none was given.
func (p *sinfoParams) defaultFormat(env *Env) {
	if p.formatSet {
		return
	}
	p.long = true
	switch {
	case p.summarize:
		p.format, p.partFieldSize = sinfoSummarize, true
	case p.nodeFlag:
		p.format, p.partFieldSize, p.nodeFieldSize = sinfoNode, true, true
		if p.longOutput {
			p.format = sinfoNodeLong
		}
	case p.reasons:
		p.format = sinfoReasons
		if p.longOutput {
			p.format = sinfoReasonsL
		}
	default:
		if v, ok := env.Getenv("SINFO_FORMAT"); ok {
			p.format, p.long = v, false
			return
		}
		p.format, p.partFieldSize = sinfoDefault, true
		if p.longOutput {
			p.format = sinfoLong
		}
	}
}

// sinfoPrinter prints lines for one parsed format.
type sinfoPrinter struct {
	items    []item
	tf       timeFormat
	partSize int
	nodeSize int
	users    Users
	// noconvert (--noconvert) prints counts as they are ("1024", not
	// "1K").
	noconvert bool
}

func (p *sinfoPrinter) partitionName(r *sinfoRec) string {
	if r.part == nil {
		return "n/a"
	}
	name := r.part.Name
	if r.part.Default {
		name += "*"
	}
	return name
}

// line prints one record (the header when r is nil).
func (p *sinfoPrinter) line(b []byte, r *sinfoRec) []byte {
	for _, it := range p.items {
		if it.field >= 0 {
			b = p.cell(b, it, &sinfoCols[it.field], r)
		}
		b = append(b, it.suffix...)
	}
	return append(b, '\n')
}

// cell prints one field of r (its header when r is nil) as Slurm's
// print functions do.
func (p *sinfoPrinter) cell(b []byte, it item, col *sinfoCol, r *sinfoRec) []byte {
	width := it.width
	switch {
	case col.letter == 'P' && p.partSize > 0:
		width = p.partSize
	case col.nodeWide && p.nodeSize > 0:
		width = p.nodeSize
	}
	if width < 0 {
		// -O name:-8: sinfo's _print_str cuts into a buffer of
		// width+1 bytes, which holds nothing; the peer prints no
		// header and no values, only the suffix.
		return b
	}
	if r == nil {
		return pad(b, col.header, width, it.right, !col.hdrNoCut)
	}
	v := col.val(r, p)
	switch {
	case col.letter == 'P' && r.part != nil && r.part.Default && width > 0 && len(v) > width:
		// Slurm keeps the default partition's "*" in a cut name.
		v = v[:width-1] + "*"
	case v == "(null)" && !it.right && width > 0 && width < len(v):
		// An unset string is a NULL that glibc prints as "(null)" only
		// when the precision leaves room for all of it.
		v = ""
	}
	return pad(b, v, width, it.right, true)
}

func sinfoOnce(ctx context.Context, env *Env, w *output, c Controller, p *sinfoParams, now time.Time) int {
	parts, err := c.Partitions(ctx)
	if err != nil {
		w.raw("slurm_load_partitions: " + errText(err) + "\n")
		return 1
	}
	nodes, err := c.Nodes(ctx, &api.NodeQuery{})
	if err != nil {
		w.raw("slurm_load_node: " + errText(err) + "\n")
		return 1
	}
	if !p.all && p.partitions == nil { // -p names them: shown, as in Slurm
		parts.Partitions = slices.DeleteFunc(parts.Partitions, func(pt api.Partition) bool { return pt.HiddenFromCaller })
	}
	pr := &sinfoPrinter{tf: newTimeFormat(env, now), users: env.Users, noconvert: p.noconvert}
	pr.items = p.items
	recs := p.records(pr, parts.Partitions, nodes.Nodes)
	p.sortRecs(recs, p.matchFlags(pr), env.Users)
	if p.partFieldSize {
		pr.partSize = minFieldSize
		for _, r := range recs {
			pr.partSize = max(pr.partSize, len(pr.partitionName(r)))
		}
	}
	if p.nodeFieldSize {
		pr.nodeSize = minFieldSize
		for _, r := range recs {
			pr.nodeSize = max(pr.nodeSize, len(hostField(r, func(n *api.Node) string { return n.Name })))
		}
	}
	b := w.buf
	if !p.noHeader {
		b = pr.line(b, nil)
	}
	for _, r := range recs {
		b = pr.line(b, r)
	}
	w.buf = b
	return 0
}

// sinfoItems parses a -o or -O format, reporting bad fields in Slurm's
// words: a bad -o letter bare on stderr, a bad -O name as an error. -o
// %all and the -O name "all" print every letter, blank after the upper
// case ones, as sinfo's _parse_format builds it.
func sinfoItems(w *output, format string, long bool) []item {
	if !long {
		if strings.EqualFold(format, "%all") {
			return sinfoAll()
		}
		items, bad := parseShortFormat(format, sinfoColumns{})
		for _, c := range bad {
			w.raw("Invalid node format specification: " + c + "\n")
		}
		return items
	}
	var items []item
	for _, tok := range strtok(format, ",") {
		name, _, _ := strings.Cut(tok, ":")
		if strings.EqualFold(name, "all") {
			items = append(items, sinfoAll()...)
			continue
		}
		more, bad := parseLongFormat(tok, sinfoColumns{})
		for _, s := range bad {
			w.errf("Invalid job format specification: %s", s) // sic: Slurm's text
		}
		items = append(items, more...)
	}
	return items
}

func sinfoAll() []item {
	var b strings.Builder
	b.WriteString("%a")
	for c := 'b'; c <= 'z'; c++ {
		b.WriteString("|%" + string(c))
	}
	for c := 'A'; c <= 'Z'; c++ {
		b.WriteString("|%" + string(c) + " ")
	}
	items, _ := parseShortFormat(b.String(), sinfoColumns{})
	// Letters sinfo lacks print nothing, not even their separator.
	return slices.DeleteFunc(items, func(it item) bool { return it.field < 0 })
}

// badRange finds the range text in a host list error.
var badRange = regexp.MustCompile(`invalid range "([^"]*)"`)

// sinfoNodes expands -n as Slurm's hostlist_create: an unclosed "[" is
// part of a name (that matches no node); a bad range inside brackets is
// reported before the error about the option.
func sinfoNodes(w *output, val string) ([]string, error) {
	names, err := hostlist.Expand(val)
	if err == nil {
		return names, nil
	}
	msg := err.Error()
	switch m := badRange.FindStringSubmatch(msg); {
	case strings.Contains(msg, "'[' without ']'"):
		return []string{val}, nil
	case m != nil:
		w.errf("_parse_single_range: Invalid range: `%s'", m[1])
	case strings.Contains(msg, "empty range"):
		w.errf("_parse_single_range: Invalid range: `'")
	}
	return nil, err
}
