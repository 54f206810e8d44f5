package command

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// acctRow is one sacct line: a job, or one of its steps.
type acctRow struct {
	j    *api.AcctJob
	step *api.AcctStep
}

// acctCol is one sacct field: Slurm's name and default width (negative:
// left-justified) and how a row prints; nil means an empty value.
type acctCol struct {
	name  string
	width int
	val   func(r acctRow, p *acctPrinter) string
}

func (r acctRow) state() job.State {
	if r.step != nil {
		return r.step.State
	}
	return r.j.State
}

// stateText is the State column: a cancelled job's line names who
// cancelled it, as Slurm's sacct does ("CANCELLED by 1000").
func (r acctRow) stateText() string {
	if r.step == nil && r.j.State == job.Cancelled && r.j.CancelledBy != nil {
		return "CANCELLED by " + strconv.FormatUint(uint64(*r.j.CancelledBy), 10)
	}
	return string(r.state())
}

// times are the row's start, end and elapsed seconds. A record that
// ended without starting (cancelled while pending) starts at its end, as
// Slurm's accounting reads it back.
func (r acctRow) times() (start, end, elapsed int64) {
	start, end, elapsed = r.j.StartTime, r.j.EndTime, r.j.Elapsed
	if r.step != nil {
		start, end, elapsed = r.step.StartTime, r.step.EndTime, r.step.Elapsed
	}
	if start == 0 && end != 0 {
		start = end
	}
	return start, end, elapsed
}

// isBatch reports whether the row is a job's batch step.
func (r acctRow) isBatch() bool { return r.step != nil && r.step.StepID == "batch" }

// cpuFreq is a ReqCPUFreq* value: a job and its srun steps requested no
// frequency ("Unknown"), the batch step's is 0, as the peer prints them.
func cpuFreq(r acctRow, _ *acctPrinter) string {
	if r.isBatch() {
		return "0"
	}
	return "Unknown"
}

// acctLayout is a step's task layout: the batch step's is Unknown; an
// srun step gets srun's default, block when it has more tasks than
// nodes, cyclic otherwise (Loam records no -m distribution).
func acctLayout(r acctRow, _ *acctPrinter) string {
	switch {
	case r.step == nil:
		return ""
	case r.isBatch():
		return "Unknown"
	case r.step.Tasks > r.step.NodeCount:
		return "Block"
	}
	return "Cyclic"
}

func (r acctRow) cpus() int {
	if r.step != nil {
		return r.step.CPUs
	}
	return r.j.CPUs
}

// acctJobID prints a job as sacct's JobID: "12", "12_3", "12_[4-9]",
// and steps "12.batch".
func acctJobID(r acctRow) string {
	j := r.j
	id := strconv.FormatUint(uint64(j.JobID), 10)
	switch {
	case j.ArrayTaskString != "":
		id = strconv.FormatUint(uint64(acctArrayID(j)), 10) + "_[" + j.ArrayTaskString + "]"
	case j.ArrayTaskID != nil:
		id = strconv.FormatUint(uint64(acctArrayID(j)), 10) + "_" + strconv.Itoa(*j.ArrayTaskID)
	}
	if r.step != nil {
		id += "." + r.step.StepID
	}
	return id
}

func acctArrayID(j *api.AcctJob) uint32 {
	if j.ArrayJobID != 0 {
		return j.ArrayJobID
	}
	return j.JobID
}

func acctJobOnly(f func(j *api.AcctJob) string) func(r acctRow, p *acctPrinter) string {
	return func(r acctRow, _ *acctPrinter) string {
		if r.step != nil {
			return ""
		}
		return f(r.j)
	}
}

func acctJobOnlyP(f func(j *api.AcctJob, p *acctPrinter) string) func(r acctRow, p *acctPrinter) string {
	return func(r acctRow, p *acctPrinter) string {
		if r.step != nil {
			return ""
		}
		return f(r.j, p)
	}
}

// reserved is the job's wait from eligible to start (to its end when it
// ended unstarted, to now while it pends), negative when its begin time
// is ahead (INVALID); 0 for a job that never was eligible.
func (pr *acctPrinter) reserved(j *api.AcctJob) int64 {
	if j.EligibleTime == 0 {
		return 0
	}
	start := cmp.Or(j.StartTime, j.EndTime, pr.now)
	return start - j.EligibleTime
}

// acctReason is the Reason the accounting keeps: for a job that has
// started, the reason it waited on last, None when it started at once
// and BeginTime after a requeue (its requeue delay); for one that never
// started, its pending reason.
func acctReason(j *api.AcctJob) string {
	switch {
	case j.StartTime != 0 && j.Restarts > 0:
		return string(job.ReasonBeginTime)
	case j.StartTime != 0:
		return "None"
	}
	return orDefault(string(j.Reason), "None")
}

// acctEnergy is ConsumedEnergy as a cluster without an energy plugin
// records it (the accounting peer's): 0 for every step, and for a job
// with srun steps or one that never started; none for a job that only
// ran its batch script.
func acctEnergy(r acctRow, _ *acctPrinter) string {
	if r.step != nil || r.j.StartTime == 0 && r.j.EndTime != 0 {
		return "0"
	}
	for _, s := range r.j.Steps {
		if s.StepID != "batch" {
			return "0"
		}
	}
	return ""
}

func acctDate(get func(r acctRow) int64) func(r acctRow, p *acctPrinter) string {
	return func(r acctRow, p *acctPrinter) string { return string(p.tf.appendTime(nil, get(r), "Unknown")) }
}

// acctCols are the fields Loam fills, in Slurm's table order, with
// Slurm's widths. The usage fields (MaxRSS, TotalCPU, ...) come from the
// node daemons' measures (sstat_format.go); fields Loam does not measure
// (disk, pages, energy, ...) are accepted and print empty, as sacct
// prints fields it has no data for.
var acctCols = []acctCol{
	{"Account", 10, func(r acctRow, _ *acctPrinter) string { return r.j.Account }},
	{"AdminComment", 15, nil},
	{"AllocCPUS", 10, func(r acctRow, _ *acctPrinter) string { return strconv.Itoa(r.cpus()) }},
	// A job that never ran was allocated no nodes.
	{"AllocNodes", 10, func(r acctRow, _ *acctPrinter) string {
		if r.step != nil {
			return strconv.Itoa(r.step.NodeCount)
		}
		if r.j.Nodes == "" {
			return "0"
		}
		return strconv.Itoa(r.j.NodeCount)
	}},
	{"AllocTRES", 10, func(r acctRow, p *acctPrinter) string {
		if r.step != nil {
			return p.tres(r.step.AllocTRES)
		}
		return p.tres(r.j.AllocTRES)
	}},
	{"AssocID", 7, nil},
	{"AveCPU", 10, acctUsage("AveCPU")},
	{"AveCPUFreq", 10, func(r acctRow, _ *acctPrinter) string {
		if r.step != nil {
			return "0"
		}
		return ""
	}},
	{"AveDiskRead", 14, nil},
	{"AveDiskWrite", 14, nil},
	{"AvePages", 10, acctUsage("AvePages")},
	{"AveRSS", 10, acctUsage("AveRSS")},
	{"AveVMSize", 10, acctUsage("AveVMSize")},
	{"BlockID", 16, nil},
	{"Cluster", 10, func(_ acctRow, p *acctPrinter) string { return p.cluster }},
	{"Comment", 14, nil},
	{"Constraints", 19, acctJobOnly(func(j *api.AcctJob) string { return j.Constraints })},
	{"ConsumedEnergy", 14, acctEnergy}, {"ConsumedEnergyRaw", 17, acctEnergy},
	{"Container", 19, nil},
	{"CPUTime", 10, func(r acctRow, _ *acctPrinter) string {
		_, _, e := r.times()
		return string(appendHMS(nil, e*int64(r.cpus())))
	}},
	{"CPUTimeRAW", 10, func(r acctRow, _ *acctPrinter) string {
		_, _, e := r.times()
		return strconv.FormatInt(e*int64(r.cpus()), 10)
	}},
	{"DBIndex", -10, nil},
	{"DerivedExitCode", 15, acctJobOnly(func(j *api.AcctJob) string { return j.DerivedExitCode.String() })},
	{"Elapsed", 10, func(r acctRow, _ *acctPrinter) string { _, _, e := r.times(); return string(appendHMS(nil, e)) }},
	{"ElapsedRaw", 10, func(r acctRow, _ *acctPrinter) string { _, _, e := r.times(); return strconv.FormatInt(e, 10) }},
	// A step was eligible when it started (sacct prints a step's start).
	{"Eligible", 19, acctDate(func(r acctRow) int64 {
		if r.step != nil {
			return r.step.StartTime
		}
		return r.j.EligibleTime
	})},
	{"End", 19, acctDate(func(r acctRow) int64 { _, e, _ := r.times(); return e })},
	{"ExitCode", 8, func(r acctRow, _ *acctPrinter) string {
		switch {
		case r.step != nil && r.step.NoExitCode:
			return "" // never ran: Slurm's accounting has no exit code
		case r.step != nil:
			return r.step.ExitCode.String()
		}
		return r.j.ExitCode.String()
	}},
	{"Flags", 19, nil},
	{"GID", 6, func(r acctRow, _ *acctPrinter) string { return u32(r.j.GroupID) }},
	{"Group", 9, func(r acctRow, p *acctPrinter) string { return p.users.Group(r.j.GroupID) }},
	{"JobID", -12, func(r acctRow, _ *acctPrinter) string { return acctJobID(r) }},
	{"JobIDRaw", -12, func(r acctRow, _ *acctPrinter) string {
		id := u32(r.j.JobID)
		if r.step != nil {
			id += "." + r.step.StepID
		}
		return id
	}},
	{"JobName", 10, func(r acctRow, _ *acctPrinter) string {
		if r.step != nil {
			return r.step.Name
		}
		return r.j.Name
	}},
	{"Layout", 9, acctLayout},
	{"MaxDiskRead", 12, nil}, {"MaxDiskReadNode", 15, nil}, {"MaxDiskReadTask", 15, nil},
	{"MaxDiskWrite", 12, nil}, {"MaxDiskWriteNode", 16, nil}, {"MaxDiskWriteTask", 16, nil},
	{"MaxPages", 8, acctUsage("MaxPages")}, {"MaxPagesNode", 12, acctUsage("MaxPagesNode")}, {"MaxPagesTask", 14, acctUsage("MaxPagesTask")},
	{"MaxRSS", 10, acctUsage("MaxRSS")}, {"MaxRSSNode", 10, acctUsage("MaxRSSNode")}, {"MaxRSSTask", 10, acctUsage("MaxRSSTask")},
	{"MaxVMSize", 10, acctUsage("MaxVMSize")}, {"MaxVMSizeNode", 14, acctUsage("MaxVMSizeNode")}, {"MaxVMSizeTask", 14, acctUsage("MaxVMSizeTask")},
	{"McsLabel", 12, nil},
	{"MinCPU", 10, acctUsage("MinCPU")}, {"MinCPUNode", 10, acctUsage("MinCPUNode")}, {"MinCPUTask", 10, acctUsage("MinCPUTask")},
	{"NCPUS", 10, func(r acctRow, _ *acctPrinter) string { return strconv.Itoa(r.cpus()) }},
	{"NNodes", 8, func(r acctRow, _ *acctPrinter) string {
		if r.step != nil {
			return strconv.Itoa(r.step.NodeCount)
		}
		return strconv.Itoa(max(r.j.NodeCount, 1))
	}},
	{"NodeList", 15, func(r acctRow, _ *acctPrinter) string {
		n := r.j.Nodes
		if r.step != nil {
			n = r.step.Nodes
		}
		return orDefault(n, "None assigned")
	}},
	{"NTasks", 8, acctUsage("NTasks")},
	{"Partition", 10, acctJobOnly(func(j *api.AcctJob) string { return j.Partition })},
	{"Priority", 10, acctJobOnly(func(j *api.AcctJob) string { return strconv.FormatInt(j.Priority, 10) })},
	{"QOS", 10, acctJobOnly(func(j *api.AcctJob) string { return j.QOS })},
	{"QOSRAW", 6, nil},
	{"Reason", 22, acctJobOnly(acctReason)},
	{"ReqCPUFreq", 10, cpuFreq}, {"ReqCPUFreqGov", 13, cpuFreq}, {"ReqCPUFreqMax", 13, cpuFreq}, {"ReqCPUFreqMin", 13, cpuFreq},
	// A step's requested CPUs and nodes are what it was given.
	{"ReqCPUS", 8, func(r acctRow, _ *acctPrinter) string { return strconv.Itoa(r.cpus()) }},
	{"ReqMem", 10, func(r acctRow, p *acctPrinter) string {
		t, err := resource.ParseTRES(r.j.ReqTRES)
		if r.step != nil || err != nil || t.Get("mem") == 0 {
			return ""
		}
		return p.mem(t.Get("mem"), false)
	}},
	{"ReqNodes", 8, func(r acctRow, _ *acctPrinter) string {
		if r.step != nil {
			return strconv.Itoa(r.step.NodeCount)
		}
		return strconv.Itoa(max(r.j.NodeCount, 1))
	}},
	{"ReqTRES", 10, func(r acctRow, p *acctPrinter) string {
		if r.step != nil {
			return ""
		}
		return p.tres(r.j.ReqTRES)
	}},
	{"Reservation", 20, nil}, {"ReservationId", 8, nil},
	{"Reserved", 10, acctJobOnlyP(func(j *api.AcctJob, p *acctPrinter) string {
		return string(appendHMS(nil, p.reserved(j)))
	})},
	{"ResvCPU", 10, acctJobOnlyP(func(j *api.AcctJob, p *acctPrinter) string {
		return string(appendHMS(nil, p.reserved(j)*int64(j.CPUs)))
	})},
	{"ResvCPURAW", 10, acctJobOnlyP(func(j *api.AcctJob, p *acctPrinter) string {
		v := p.reserved(j) * int64(j.CPUs)
		if v < 0 { // Slurm's unsigned 32-bit arithmetic
			return strconv.FormatUint(uint64(uint32(v)), 10)
		}
		return strconv.FormatInt(v, 10)
	})},
	{"Start", 19, acctDate(func(r acctRow) int64 { s, _, _ := r.times(); return s })},
	{"State", 10, func(r acctRow, _ *acctPrinter) string { return r.stateText() }},
	{"Submit", 19, acctDate(func(r acctRow) int64 { return r.j.SubmitTime })},
	{"SubmitLine", 20, nil},
	// A job's steps were suspended with it: every row shows the job's.
	{"Suspended", 10, func(r acctRow, _ *acctPrinter) string { return string(appendHMS(nil, r.j.Suspended)) }},
	{"SystemComment", 15, nil}, {"SystemCPU", 10, acctUsage("SystemCPU")},
	{"Timelimit", 10, acctJobOnly(func(j *api.AcctJob) string {
		if j.TimeLimit == 0 {
			return "Partition_Limit"
		}
		return string(appendHMS(nil, roundMinutes(j.TimeLimit)))
	})},
	{"TimelimitRaw", 10, acctJobOnly(func(j *api.AcctJob) string {
		if j.TimeLimit == api.UnlimitedSeconds {
			return "UNLIMITED"
		}
		return strconv.FormatInt(j.TimeLimit/60, 10)
	})},
	{"TotalCPU", 10, acctUsage("TotalCPU")},
	{"TRESUsageInAve", 14, acctUsage("TRESUsageInAve")}, {"TRESUsageInMax", 14, acctUsage("TRESUsageInMax")}, {"TRESUsageInMaxNode", 18, acctUsage("TRESUsageInMaxNode")},
	{"TRESUsageInMaxTask", 18, acctUsage("TRESUsageInMaxTask")}, {"TRESUsageInMin", 14, acctUsage("TRESUsageInMin")}, {"TRESUsageInMinNode", 18, acctUsage("TRESUsageInMinNode")},
	{"TRESUsageInMinTask", 18, acctUsage("TRESUsageInMinTask")}, {"TRESUsageInTot", 14, acctUsage("TRESUsageInTot")},
	{"TRESUsageOutAve", 15, acctUsage("TRESUsageOutAve")}, {"TRESUsageOutMax", 15, acctUsage("TRESUsageOutMax")},
	{"TRESUsageOutMaxNode", 19, acctUsage("TRESUsageOutMaxNode")}, {"TRESUsageOutMaxTask", 19, acctUsage("TRESUsageOutMaxTask")},
	{"TRESUsageOutMin", 15, acctUsage("TRESUsageOutMin")}, {"TRESUsageOutMinNode", 19, acctUsage("TRESUsageOutMinNode")},
	{"TRESUsageOutMinTask", 19, acctUsage("TRESUsageOutMinTask")}, {"TRESUsageOutTot", 15, acctUsage("TRESUsageOutTot")},
	{"UID", 6, acctJobOnly(func(j *api.AcctJob) string { return u32(j.UserID) })},
	{"User", 9, acctJobOnly(func(j *api.AcctJob) string { return j.UserName })},
	{"UserCPU", 10, acctUsage("UserCPU")},
	{"WCKey", 10, nil}, {"WCKeyID", 10, acctJobOnly(func(*api.AcctJob) string { return "0" })},
	{"WorkDir", 20, acctJobOnly(func(j *api.AcctJob) string { return j.WorkDir })},
}

// sortTRES orders a TRES string by name, as sacct prints the accounting's
// TRES ("billing=2,cpu=2,gres/gpu=2,mem=2G,node=2").
func sortTRES(s string) string {
	if s == "" {
		return s
	}
	parts := strings.Split(s, ",")
	slices.SortStableFunc(parts, func(a, b string) int {
		na, _, _ := strings.Cut(a, "=")
		nb, _, _ := strings.Cut(b, "=")
		return strings.Compare(na, nb)
	})
	return strings.Join(parts, ",")
}

// findAcctCol resolves a --format token as sacct does: the first field
// whose name starts with it, in any case.
func findAcctCol(tok string) (int, bool) {
	for i, c := range acctCols {
		if len(tok) <= len(c.name) && strings.EqualFold(c.name[:len(tok)], tok) {
			return i, true
		}
	}
	return 0, false
}
