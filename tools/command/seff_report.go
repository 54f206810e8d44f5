package command

import (
	"math"
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// seffReport is what seff reads of a job's accounting record, in Slurm
// 22.05's seff terms: memory in kilobytes, times in seconds.
type seffReport struct {
	jobID      uint32
	arrayJobID string // "12_3"; "" outside an array
	user       string
	group      string
	state      string
	cluster    string
	exit       int // the exit status, the signal left out
	ncpus      int64
	nnodes     int64
	ntasks     int     // tasks of the step with the largest task peak
	reqMemKB   float64 // the job's whole request
	perNode    bool    // the request was per node (--mem), not per CPU
	cpuSecs    int64   // the steps' user plus system time
	wallSecs   int64
	memKB      float64 // largest task peak of a step times its tasks
	gpus       int     // Loam's addition: the job's GPUs
	pending    bool
	running    bool
}

// newSeffReport reads j as seff reads a job of the database: the CPUs
// and nodes of its allocation (1 when it has none), its memory request
// over the allocation, the CPU time of all its steps and the memory of
// the step whose largest task peaked highest, times that step's tasks.
func newSeffReport(j *api.AcctJob, cluster string, users Users) seffReport {
	r := seffReport{
		jobID: j.JobID, user: j.UserName, group: users.Group(j.GroupID), state: string(j.State),
		cluster: cluster, exit: j.ExitCode.Status, wallSecs: j.Elapsed, gpus: j.GPUs,
		pending: j.State == job.Pending, running: j.State == job.Running,
	}
	if j.ArrayJobID != 0 && j.ArrayTaskID != nil {
		r.arrayJobID = strconv.FormatUint(uint64(j.ArrayJobID), 10) + "_" + strconv.Itoa(*j.ArrayTaskID)
	}
	r.ncpus, r.nnodes = 1, 1
	if t, err := resource.ParseTRES(j.AllocTRES); err == nil && t.Get("cpu") > 0 {
		r.ncpus = t.Get("cpu")
	}
	if j.StartTime != 0 && j.NodeCount > 0 {
		r.nnodes = int64(j.NodeCount)
	}
	r.perNode = j.MemPerCPU == 0
	if r.perNode {
		r.reqMemKB = float64(j.MemPerNode * 1024 * r.nnodes)
	} else {
		r.reqMemKB = float64(j.MemPerCPU * 1024 * r.ncpus)
	}
	r.foldSteps(j.Steps)
	return r
}

// foldSteps adds the steps' CPU time (whole seconds summed, then the
// summed microseconds rounded) and finds the step with the largest task
// memory peak.
func (r *seffReport) foldSteps(steps []api.AcctStep) {
	var secs, usecs int64
	for i := range steps {
		st := &steps[i]
		if st.Usage == nil {
			continue
		}
		s, ok := st.Usage.Summary()
		if !ok {
			continue
		}
		secs += s.TotalUsec() / 1e6
		usecs += s.TotalUsec() % 1e6
		if kb := float64(s.MaxRSS) / 1024; r.memKB < kb {
			r.memKB, r.ntasks = kb, st.Tasks
			if r.ntasks == 0 {
				r.ntasks = s.NTasks
			}
		}
	}
	r.cpuSecs = secs + int64(float64(usecs)/1e6+0.5)
	r.memKB *= float64(r.ntasks)
}

// appendReport writes seff's lines, then Loam's GPU count.
func (r *seffReport) appendReport(b []byte) []byte {
	b = appendLine(b, "Job ID: ", strconv.FormatUint(uint64(r.jobID), 10))
	if r.arrayJobID != "" {
		b = appendLine(b, "Array Job ID: ", r.arrayJobID)
	}
	b = appendLine(b, "Cluster: ", r.cluster)
	b = appendLine(b, "User/Group: ", r.user+"/"+r.group)
	if r.pending || r.running {
		b = appendLine(b, "State: ", r.state)
	} else {
		b = appendLine(b, "State: ", r.state+" (exit code "+strconv.Itoa(r.exit)+")")
	}
	if r.ncpus == 1 {
		b = appendLine(b, "Cores: ", "1")
	} else {
		b = appendLine(b, "Nodes: ", strconv.FormatInt(r.nnodes, 10))
		b = appendLine(b, "Cores per node: ", strconv.FormatInt(r.ncpus/r.nnodes, 10))
	}
	if r.pending {
		b = append(b, "Efficiency not available for jobs in the PENDING state.\n"...)
	} else {
		b = r.appendEfficiency(b)
	}
	if r.gpus > 0 {
		b = appendLine(b, "GPUs: ", strconv.Itoa(r.gpus))
	}
	return b
}

// appendEfficiency writes the CPU and memory lines of a job that ran.
func (r *seffReport) appendEfficiency(b []byte) []byte {
	coreWall := r.wallSecs * r.ncpus
	b = appendLine(b, "CPU Utilized: ", seffTime(r.cpuSecs))
	b = appendLine(b, "CPU Efficiency: ", seffPercent(float64(r.cpuSecs), float64(coreWall))+" of "+seffTime(coreWall)+" core-walltime")
	b = appendLine(b, "Job Wall-clock time: ", seffTime(r.wallSecs))
	if r.ntasks == 1 {
		b = appendLine(b, "Memory Utilized: ", seffKB(r.memKB))
	} else {
		b = appendLine(b, "Memory Utilized: ", seffKB(r.memKB)+" (estimated maximum)")
	}
	eff := seffPercent(r.memKB, r.reqMemKB) + " of " + seffKB(r.reqMemKB)
	switch {
	case r.ntasks == 1:
	case r.perNode:
		eff += " (" + seffKB(r.reqMemKB/float64(r.nnodes)) + "/node)"
	default:
		eff += " (" + seffKB(r.reqMemKB/float64(r.ncpus)) + "/core)"
	}
	b = appendLine(b, "Memory Efficiency: ", eff)
	if r.running {
		b = append(b, "WARNING: Efficiency statistics may be misleading for RUNNING jobs.\n"...)
	}
	return b
}

// appendDebug writes -d's raw figures, in seff's order.
func (r *seffReport) appendDebug(b []byte) []byte {
	b = append(b, "Slurm data: JobID ArrayJobID User Group State Clustername Ncpus Nnodes Ntasks Reqmem PerNode Cput Walltime Mem ExitStatus\n"...)
	perNode := "0"
	if r.perNode {
		perNode = "1"
	}
	b = append(b, "Slurm data: "...)
	for i, f := range []string{strconv.FormatUint(uint64(r.jobID), 10), r.arrayJobID, r.user, r.group, r.state, r.cluster,
		strconv.FormatInt(r.ncpus, 10), strconv.FormatInt(r.nnodes, 10), strconv.Itoa(r.ntasks), perlNum(r.reqMemKB), perNode,
		strconv.FormatInt(r.cpuSecs, 10), strconv.FormatInt(r.wallSecs, 10), perlNum(r.memKB), strconv.Itoa(r.exit)} {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, f...)
	}
	return append(b, "\n\n"...)
}

func appendLine(b []byte, label, value string) []byte {
	b = append(b, label...)
	b = append(b, value...)
	return append(b, '\n')
}

// seffTime prints seconds as seff does: "[D-]HH:MM:SS", Slurm's
// duration form (appendHMS); seff's times are never negative.
func seffTime(secs int64) string { return string(appendHMS(nil, secs)) }

// seffKB prints kilobytes as seff does: in the largest binary unit that
// leaves at least one, two decimals ("311.00 MB"); nothing is "0.00 MB".
func seffKB(kb float64) string {
	if kb == 0 {
		return "0.00 MB"
	}
	exp := int(math.Log(kb) / math.Log(1024)) // toward zero, as Perl's int
	unit := ""
	if exp >= 0 && exp < len("KMGTPE") {
		unit = "KMGTPE"[exp : exp+1]
	}
	return strconv.FormatFloat(kb/math.Pow(1024, float64(exp)), 'f', 2, 64) + " " + unit + "B"
}

// seffPercent is used over of as a percentage with two decimals, 0.00%
// when of is 0.
func seffPercent(used, of float64) string {
	pct := 0.0
	if of != 0 {
		pct = used / of * 100
	}
	return strconv.FormatFloat(pct, 'f', 2, 64) + "%"
}

// perlNum prints a number as Perl prints one (%.15g).
func perlNum(f float64) string {
	return strconv.FormatFloat(f, 'g', 15, 64)
}
