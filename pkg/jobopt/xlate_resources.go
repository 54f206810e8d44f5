package jobopt

import (
	"strconv"
	"strings"
)

// #PBS -l: Torque's and PBS Pro's resource lists, read as sbatch reads
// them. sbatch does not split the list: it walks it a character at a time
// and acts wherever a known "key=" starts (so "xmem=1" is mem=1), reading
// the value up to the next "," (or ":" for PBS Pro's select, ncpus and
// mpiprocs, so "select=2:ncpus=8" is two keys).

// pbsKey is one key sbatch knows, with what it does with the value.
type pbsKey struct {
	name string // with its "="
	fold bool   // matched in any case
	act  func(b *builder, l *resourceList) error
}

// resourceList is the walk over one -l value.
type resourceList struct {
	s    string
	i    int
	gpus int // from accelerator=true and naccelerators=
	pro  int // PBS Pro keys seen: select 1, ncpus 2, mpiprocs 4
}

// value reads up to sep and past it.
func (l *resourceList) value(sep byte) string {
	rest := l.s[l.i:]
	j := strings.IndexByte(rest, sep)
	if j < 0 {
		l.i = len(l.s)
		return rest
	}
	l.i += j + 1
	return rest[:j]
}

func (l *resourceList) skip() { l.value(',') }

// pbsKeys are the keys in sbatch's order.
var pbsKeys = []pbsKey{
	{"accelerator=", true, func(b *builder, l *resourceList) error {
		if hasPrefixFold(l.s[l.i:], "true") && l.gpus < 1 {
			l.gpus = 1
		}
		return nil // the walk goes on over the value
	}},
	{"arch=", false, skipKey},
	{"cput=", false, timeKey},
	{"file=", false, func(b *builder, l *resourceList) error { return b.as("tmp", torqueSize(l.value(',')), true) }},
	{"host=", false, skipKey},
	{"mem=", false, func(b *builder, l *resourceList) error { return b.as("mem", torqueSize(l.value(',')), true) }},
	{"mpiprocs=", true, func(b *builder, l *resourceList) error {
		l.pro |= 4
		return b.as("ntasks-per-node", l.value(':'), true)
	}},
	{"naccelerators=", true, func(b *builder, l *resourceList) error {
		n, err := b.parseInt("naccelerators", l.value(','), true)
		l.gpus = n
		return err
	}},
	{"ncpus=", true, func(b *builder, l *resourceList) error {
		l.pro |= 2
		return b.as("mincpus", l.value(':'), true)
	}},
	{"nice=", false, func(b *builder, l *resourceList) error { return b.as("nice", l.value(','), true) }},
	{"nodes=", false, func(b *builder, l *resourceList) error { return b.pbsNodes(l.value(',')) }},
	{"opsys=", false, skipKey},
	{"other=", false, skipKey},
	{"pcput=", false, timeKey},
	{"pmem=", false, skipKey},
	{"proc=", false, procKey},
	{"pvmem=", false, skipKey},
	{"select=", true, func(b *builder, l *resourceList) error {
		l.pro |= 1
		return b.as("nodes", l.value(':'), true)
	}},
	{"software=", false, skipKey},
	{"vmem=", false, skipKey},
	{"walltime=", false, timeKey},
}

func skipKey(b *builder, l *resourceList) error { l.skip(); return nil }

// timeKey: walltime, cput and pcput are all the time limit.
func timeKey(b *builder, l *resourceList) error { return b.as("time", l.value(','), true) }

// procKey is proc=FEATURE, put before the constraint set so far. sbatch
// then skips the next key as well.
func procKey(b *builder, l *resourceList) error {
	c := l.value(',')
	if prev, ok := b.passed["constraint"]; ok && prev.str != "" {
		c += "," + prev.str
	}
	err := b.as("constraint", c, true)
	l.skip()
	return err
}

// torqueSize drops the "b" of Torque's "GB" or "MB".
func torqueSize(s string) string {
	if strings.HasSuffix(s, "b") || strings.HasSuffix(s, "B") {
		return s[:len(s)-1]
	}
	return s
}

func setPBSResources(b *builder, v value) error { return b.pbsResources(v.str) }

// pbsResources applies one -l list.
func (b *builder) pbsResources(s string) error {
	l := &resourceList{s: s}
	for l.i < len(l.s) {
		k := matchPBSKey(l.s[l.i:])
		if k == nil {
			l.i++
			continue
		}
		l.i += len(k.name)
		if err := k.act(b, l); err != nil {
			return err
		}
	}
	// PBS Pro's select=N:ncpus=C:mpiprocs=T: C CPUs a node for T tasks.
	if l.pro == 7 && b.req.NTasksPerNode > 0 && b.req.MinCPUs > b.req.NTasksPerNode {
		if err := b.as("cpus-per-task", strconv.Itoa(b.req.MinCPUs/b.req.NTasksPerNode), true); err != nil {
			return err
		}
	}
	if l.gpus > 0 {
		g := "gpu:" + strconv.Itoa(l.gpus)
		if prev, ok := b.passed["gres"]; ok && prev.str != "" {
			g = prev.str + "," + g
		}
		return b.as("gres", g, true)
	}
	return nil
}

func matchPBSKey(s string) *pbsKey {
	for i := range pbsKeys {
		k := &pbsKeys[i]
		if strings.HasPrefix(s, k.name) || (k.fold && hasPrefixFold(s, k.name)) {
			return k
		}
	}
	return nil
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// pbsNodes is nodes=: "+"-separated parts of ":"-separated fields: node
// counts (added up), ppn= (added up, tasks per node), gpus= (GPUs per node)
// and host names.
func (b *builder) pbsNodes(s string) error {
	var count, ppn int32 // C ints
	var hosts []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case strings.HasPrefix(s[i:], "gpus="):
			i += len("gpus=")
			if err := b.as("gpus-per-node", nodePart(s, &i), true); err != nil {
				return err
			}
		case strings.HasPrefix(s[i:], "ppn="):
			i += len("ppn=")
			n, _ := cStrtol(s[i:])
			ppn = int32(int64(ppn) + n)
			nodePart(s, &i)
		case '0' <= c && c <= '9':
			n, _ := cStrtol(s[i:])
			count = int32(int64(count) + n)
			nodePart(s, &i)
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			hosts = append(hosts, nodePart(s, &i))
		default:
			i++
		}
	}
	if count == 0 {
		count = 1
	} else if err := b.as("nodes", strconv.Itoa(int(count)), true); err != nil {
		return err
	}
	if ppn != 0 {
		if err := b.as("ntasks", strconv.Itoa(int(ppn*count)), true); err != nil {
			return err
		}
	}
	if len(hosts) > 0 {
		return b.as("nodelist", strings.Join(hosts, ","), true)
	}
	return nil
}

// nodePart reads up to the next "+" or ":" and past it.
func nodePart(s string, i *int) string {
	start := *i
	for *i < len(s) && s[*i] != '+' && s[*i] != ':' {
		*i++
	}
	part := s[start:*i]
	if *i < len(s) {
		*i++
	}
	return part
}
