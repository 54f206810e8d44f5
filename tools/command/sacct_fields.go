package command

import (
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

func (r acctRow) times() (start, end, elapsed int64) {
	if r.step != nil {
		return r.step.StartTime, r.step.EndTime, r.step.Elapsed
	}
	return r.j.StartTime, r.j.EndTime, r.j.Elapsed
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
	{"AllocNodes", 10, func(r acctRow, _ *acctPrinter) string {
		if r.step != nil {
			return strconv.Itoa(r.step.NodeCount)
		}
		return strconv.Itoa(r.j.NodeCount)
	}},
	{"AllocTRES", 10, func(r acctRow, _ *acctPrinter) string {
		if r.step != nil {
			return r.step.AllocTRES
		}
		return r.j.AllocTRES
	}},
	{"AssocID", 7, nil},
	{"AveCPU", 10, acctUsage("AveCPU")},
	{"AveCPUFreq", 10, nil},
	{"AveDiskRead", 14, nil},
	{"AveDiskWrite", 14, nil},
	{"AvePages", 10, nil},
	{"AveRSS", 10, acctUsage("AveRSS")},
	{"AveVMSize", 10, acctUsage("AveVMSize")},
	{"BlockID", 16, nil},
	{"Cluster", 10, func(_ acctRow, p *acctPrinter) string { return p.cluster }},
	{"Comment", 14, nil},
	{"Constraints", 19, nil},
	{"ConsumedEnergy", 14, nil},
	{"ConsumedEnergyRaw", 17, nil},
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
		if r.step != nil {
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
	{"Layout", 9, nil},
	{"MaxDiskRead", 12, nil}, {"MaxDiskReadNode", 15, nil}, {"MaxDiskReadTask", 15, nil},
	{"MaxDiskWrite", 12, nil}, {"MaxDiskWriteNode", 16, nil}, {"MaxDiskWriteTask", 16, nil},
	{"MaxPages", 8, nil}, {"MaxPagesNode", 12, nil}, {"MaxPagesTask", 14, nil},
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
	{"Reason", 22, acctJobOnly(func(j *api.AcctJob) string { return orDefault(string(j.Reason), "None") })},
	{"ReqCPUFreq", 10, nil}, {"ReqCPUFreqGov", 13, nil}, {"ReqCPUFreqMax", 13, nil}, {"ReqCPUFreqMin", 13, nil},
	{"ReqCPUS", 8, acctJobOnly(func(j *api.AcctJob) string { return strconv.Itoa(j.CPUs) })},
	{"ReqMem", 10, acctJobOnly(func(j *api.AcctJob) string {
		t, err := resource.ParseTRES(j.ReqTRES)
		if err != nil || t.Get("mem") == 0 {
			return ""
		}
		return resource.FormatMemory(t.Get("mem"))
	})},
	{"ReqNodes", 8, acctJobOnly(func(j *api.AcctJob) string { return strconv.Itoa(max(j.NodeCount, 1)) })},
	{"ReqTRES", 10, acctJobOnly(func(j *api.AcctJob) string { return j.ReqTRES })},
	{"Reservation", 20, nil}, {"ReservationId", 8, nil},
	{"Reserved", 10, acctJobOnly(func(j *api.AcctJob) string {
		if j.StartTime == 0 || j.EligibleTime == 0 {
			return ""
		}
		return string(appendHMS(nil, max(j.StartTime-j.EligibleTime, 0)))
	})},
	{"ResvCPU", 10, nil}, {"ResvCPURAW", 10, nil},
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
	{"TRESUsageInMinTask", 18, acctUsage("TRESUsageInMinTask")}, {"TRESUsageInTot", 14, acctUsage("TRESUsageInTot")}, {"TRESUsageOutAve", 15, nil},
	{"TRESUsageOutMax", 15, nil}, {"TRESUsageOutMaxNode", 19, nil}, {"TRESUsageOutMaxTask", 19, nil},
	{"TRESUsageOutMin", 15, nil}, {"TRESUsageOutMinNode", 19, nil}, {"TRESUsageOutMinTask", 19, nil},
	{"TRESUsageOutTot", 15, nil},
	{"UID", 6, acctJobOnly(func(j *api.AcctJob) string { return u32(j.UserID) })},
	{"User", 9, acctJobOnly(func(j *api.AcctJob) string { return j.UserName })},
	{"UserCPU", 10, acctUsage("UserCPU")},
	{"WCKey", 10, nil}, {"WCKeyID", 10, nil},
	{"WorkDir", 20, acctJobOnly(func(j *api.AcctJob) string { return j.WorkDir })},
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
