package command

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// sstatCol is one sstat field: Slurm's name and default width (negative:
// left-justified) and how a step (or, with -i, one node of it) prints;
// nil prints blank (what Loam does not measure: disk, CPU frequency).
type sstatCol struct {
	name  string
	width int
	val   func(c sstatCell) string
}

// sstatCell is what a cell prints from: the step, the use it shows (the
// step's, or with -i one node's), and the settings.
type sstatCell struct {
	s    *api.StepStat
	u    *api.StepUsage
	f    usageFmt
	pids bool // -i: a line of pids, with no usage figures, as sstat's
}

// sstatUsageCol prints a usage field of the cell's use; with -i none
// (and NTasks 0), as sstat prints its pid lines.
func sstatUsageCol(name string) func(c sstatCell) string {
	return func(c sstatCell) string {
		switch {
		case c.pids && name == "NTasks":
			return "0"
		case c.pids:
			return ""
		case len(c.u.Nodes) == 0 && name == "NTasks":
			return strconv.Itoa(c.s.Tasks)
		case len(c.u.Nodes) == 0:
			return ""
		}
		return usageValue(name, c.u, c.s.Tasks, c.f)
	}
}

// sstatFixed prints v on every step: the figures Loam has no plugin for,
// as a Slurm cluster without one prints them (energy 0; CPU frequency
// requests: none).
func sstatFixed(v string) func(c sstatCell) string {
	return func(c sstatCell) string {
		if v == "Unknown" && c.s.StepID == "batch" {
			return "0" // the batch step's request is 0, as sstat prints it
		}
		return v
	}
}

// sstatCols are sstat's fields in the order sstat -e lists them.
var sstatCols = []sstatCol{
	{"AveCPU", 10, sstatUsageCol("AveCPU")},
	{"AveCPUFreq", 10, sstatFixed("0")},
	{"AveDiskRead", 12, nil},
	{"AveDiskWrite", 12, nil},
	{"AvePages", 10, sstatUsageCol("AvePages")},
	{"AveRSS", 10, sstatUsageCol("AveRSS")},
	{"AveVMSize", 10, sstatUsageCol("AveVMSize")},
	{"ConsumedEnergy", 14, sstatFixed("0")},
	{"ConsumedEnergyRaw", 17, sstatFixed("0")},
	{"JobID", -12, func(c sstatCell) string {
		return strconv.FormatUint(uint64(c.s.JobID), 10) + "." + c.s.StepID
	}},
	{"MaxDiskRead", 12, nil}, {"MaxDiskReadNode", 15, nil}, {"MaxDiskReadTask", 15, nil},
	{"MaxDiskWrite", 12, nil}, {"MaxDiskWriteNode", 16, nil}, {"MaxDiskWriteTask", 16, nil},
	{"MaxPages", 8, sstatUsageCol("MaxPages")}, {"MaxPagesNode", 12, sstatUsageCol("MaxPagesNode")},
	{"MaxPagesTask", 14, sstatUsageCol("MaxPagesTask")},
	{"MaxRSS", 10, sstatUsageCol("MaxRSS")},
	{"MaxRSSNode", 10, sstatUsageCol("MaxRSSNode")},
	{"MaxRSSTask", 10, sstatUsageCol("MaxRSSTask")},
	{"MaxVMSize", 10, sstatUsageCol("MaxVMSize")},
	{"MaxVMSizeNode", 14, sstatUsageCol("MaxVMSizeNode")},
	{"MaxVMSizeTask", 14, sstatUsageCol("MaxVMSizeTask")},
	{"MinCPU", 10, sstatUsageCol("MinCPU")},
	{"MinCPUNode", 10, sstatUsageCol("MinCPUNode")},
	{"MinCPUTask", 10, sstatUsageCol("MinCPUTask")},
	{"Nodelist", 20, func(c sstatCell) string { return c.s.Nodes }},
	{"NTasks", 8, sstatUsageCol("NTasks")},
	{"Pids", 20, func(c sstatCell) string { return stepPids(c.u) }},
	{"ReqCPUFreq", 10, sstatFixed("Unknown")}, {"ReqCPUFreqMin", 13, sstatFixed("Unknown")},
	{"ReqCPUFreqMax", 13, sstatFixed("Unknown")}, {"ReqCPUFreqGov", 13, sstatFixed("Unknown")},
	{"TRESUsageInAve", 14, sstatUsageCol("TRESUsageInAve")},
	{"TRESUsageInMax", 14, sstatUsageCol("TRESUsageInMax")},
	{"TRESUsageInMaxNode", 18, sstatUsageCol("TRESUsageInMaxNode")},
	{"TRESUsageInMaxTask", 18, sstatUsageCol("TRESUsageInMaxTask")},
	{"TRESUsageInMin", 14, sstatUsageCol("TRESUsageInMin")},
	{"TRESUsageInMinNode", 18, sstatUsageCol("TRESUsageInMinNode")},
	{"TRESUsageInMinTask", 18, sstatUsageCol("TRESUsageInMinTask")},
	{"TRESUsageInTot", 14, sstatUsageCol("TRESUsageInTot")},
	{"TRESUsageOutAve", 15, sstatUsageCol("TRESUsageOutAve")},
	{"TRESUsageOutMax", 15, sstatUsageCol("TRESUsageOutMax")},
	{"TRESUsageOutMaxNode", 19, sstatUsageCol("TRESUsageOutMaxNode")},
	{"TRESUsageOutMaxTask", 19, sstatUsageCol("TRESUsageOutMaxTask")},
	{"TRESUsageOutMin", 15, sstatUsageCol("TRESUsageOutMin")},
	{"TRESUsageOutMinNode", 19, sstatUsageCol("TRESUsageOutMinNode")},
	{"TRESUsageOutMinTask", 19, sstatUsageCol("TRESUsageOutMinTask")},
	{"TRESUsageOutTot", 15, sstatUsageCol("TRESUsageOutTot")},
}

// stepPids lists the processes of u's tasks, node by node.
func stepPids(u *api.StepUsage) string {
	var b []byte
	for _, n := range u.Nodes {
		for _, t := range n.Tasks {
			for _, p := range t.Pids {
				if len(b) > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(p), 10)
			}
		}
	}
	return string(b)
}

// findSstatCol resolves a --format token as sstat does: the first field
// whose name starts with it, in any case.
func findSstatCol(tok string) (int, bool) {
	for i, c := range sstatCols {
		if len(tok) <= len(c.name) && strings.EqualFold(c.name[:len(tok)], tok) {
			return i, true
		}
	}
	return 0, false
}

// parseFormat reads a --format list: fields by prefix, each optionally
// "%width".
func (run *sstatRun) parseFormat(w *output, format string) int {
	for _, tok := range strtok(format, ",") {
		name, width, hasWidth := strings.Cut(strings.TrimSpace(tok), "%")
		if name == "" {
			continue
		}
		k, ok := findSstatCol(name)
		if !ok {
			w.errf("Invalid field requested: \"%s\"", name)
			return 1
		}
		n, _ := strtol(width)
		run.fields = append(run.fields, acctField{col: k, width: pick(hasWidth, n, sstatCols[k].width)})
	}
	return 0
}

// headerLine prints the field names, cut to their widths without a
// mark, and unless parsable the dash line.
func (run *sstatRun) headerLine(b []byte) []byte {
	for i, f := range run.fields {
		name := sstatCols[f.col].name
		if run.pr.parsable == 0 && len(name) > abs(f.width) {
			name = name[:abs(f.width)]
		}
		b = run.pr.cell(b, name, f.width, i == len(run.fields)-1, true)
	}
	b = append(b, '\n')
	if run.pr.parsable > 0 {
		return b
	}
	for _, f := range run.fields {
		b = append(b, strings.Repeat("-", abs(f.width))...)
		b = append(b, ' ')
	}
	return append(b, '\n')
}

// rows prints step s: one line, or with -i one per node.
func (run *sstatRun) rows(b []byte, s *api.StepStat) []byte {
	if !run.perNode || len(s.Usage.Nodes) == 0 {
		return run.row(b, s, &s.Usage)
	}
	for _, n := range s.Usage.Nodes {
		one := *s
		one.Nodes = n.Node
		b = run.row(b, &one, &api.StepUsage{Nodes: []api.NodeUsage{n}})
	}
	return b
}

func (run *sstatRun) row(b []byte, s *api.StepStat, u *api.StepUsage) []byte {
	cell := sstatCell{s: s, u: u, f: usageFmt{raw: run.noconvert, sstat: true}, pids: run.perNode}
	for i, f := range run.fields {
		c := &sstatCols[f.col]
		v := ""
		if c.val != nil {
			v = c.val(cell)
		}
		b = run.pr.cell(b, v, f.width, i == len(run.fields)-1, v != "")
	}
	return append(b, '\n')
}

// sstatFieldHelp lists the fields as sstat -e does: four a line, each
// padded to 19 columns.
func sstatFieldHelp() string {
	var b strings.Builder
	for i, c := range sstatCols {
		b.WriteString(c.name)
		b.WriteString(strings.Repeat(" ", max(0, 19-len(c.name))))
		if (i+1)%4 == 0 || i == len(sstatCols)-1 {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}
