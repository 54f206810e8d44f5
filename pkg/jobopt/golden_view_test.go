package jobopt

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// scontrolView prints the fields of a parsed request that sbatch decides,
// as "scontrol show job" shows them, so that they can be compared with the
// real job. Fields the controller fills in (default partition, time limit,
// output names) are left out when the request leaves them open.
func scontrolView(res *Result, jobID string) map[string]string {
	r := &res.Request
	v := map[string]string{
		"JobName": r.Name,
		"Account": orNull(r.Account),
		"WorkDir": r.WorkDir,
		"StdIn":   r.StdIn,
		"Command": orNull(strings.Join(r.Argv, " ")),
	}
	set := func(key, val string, ok bool) {
		if ok {
			v[key] = val
		}
	}
	set("Partition", strings.Join(r.Partitions, ","), len(r.Partitions) > 0)
	set("Comment", r.Comment, r.Comment != "")
	set("Features", r.Constraint, r.Constraint != "")
	set("ReqNodeList", r.NodeList, r.NodeList != "")
	set("MailUser", r.MailUser, r.MailUser != "")
	set("MailType", r.MailType.String(), r.MailType != 0)
	set("Reason", "JobHeldUser", r.Hold)
	set("NumTasks", strconv.Itoa(r.NTasks), r.NTasks > 0)
	set("CPUs/Task", strconv.Itoa(r.CPUsPerTask), r.CPUsPerTask > 0)
	set("NumNodes", nodeRange(r), r.NodesSet)
	if r.TimeLimit != nil {
		v["TimeLimit"] = limit(*r.TimeLimit)
	}
	if r.TimeMin != nil {
		v["TimeMin"] = limit(*r.TimeMin)
	}
	if r.MemPerNode != nil {
		v["MinMemoryNode"] = resource.FormatMemory(*r.MemPerNode)
	}
	if r.MemPerCPU != nil {
		v["MinMemoryCPU"] = resource.FormatMemory(*r.MemPerCPU)
	}
	if r.TmpDisk > 0 {
		v["MinTmpDiskNode"] = resource.FormatMemory(r.TmpDisk)
	}
	if r.Nice != nil {
		v["Nice"] = strconv.Itoa(*r.Nice)
	}
	if r.Requeue != nil {
		v["Requeue"] = map[bool]string{true: "1", false: "0"}[*r.Requeue]
	}
	if r.KillOnInvalidDep != nil {
		v["KillOInInvalidDependent"] = map[bool]string{true: "Yes", false: "No"}[*r.KillOnInvalidDep]
	}
	if r.Begin != nil {
		v["EligibleTime"] = r.Begin.Format("2006-01-02T15:04:05")
	}
	if r.Deadline != nil {
		v["Deadline"] = r.Deadline.Format("2006-01-02T15:04:05")
	}
	gresView(r, v)
	fileView(r, jobID, v)
	if r.Array != "" {
		if a, err := job.ParseArray(r.Array, 10001); err == nil {
			v["ArrayTaskId"] = a.Display()
		}
	}
	if s, ok := map[job.Exclusive]string{job.ExclusiveNodes: "NO", job.ExclusiveUser: "USER",
		job.ExclusiveMCS: "MCS", job.Oversubscribe: "YES"}[r.Exclusive]; ok {
		v["OverSubscribe"] = s
	}
	return v
}

func gresView(r *job.Request, v map[string]string) {
	var perNode []string
	for _, s := range []string{resource.FormatTRESPer(r.GPUsPerNode), resource.FormatTRESPer(r.GRES)} {
		if s != "" {
			perNode = append(perNode, s)
		}
	}
	if len(perNode) > 0 {
		v["TresPerNode"] = strings.Join(perNode, ",")
	}
	if len(r.GPUs) > 0 {
		v["TresPerJob"] = resource.FormatTRESPer(r.GPUs)
	}
	if len(r.GPUsPerTask) > 0 {
		v["TresPerTask"] = resource.FormatTRESPer(r.GPUsPerTask)
	}
	if r.CPUsPerGPU > 0 {
		v["CpusPerTres"] = fmt.Sprintf("gres:gpu:%d", r.CPUsPerGPU)
	}
	if r.MemPerGPU != nil {
		v["MemPerTres"] = fmt.Sprintf("gres:gpu:%d", *r.MemPerGPU)
	}
}

// fileView expands the two patterns the golden cases use, as scontrol does.
func fileView(r *job.Request, jobID string, v map[string]string) {
	expand := strings.NewReplacer("%j", jobID, "%x", r.Name)
	if r.StdOut != "" {
		v["StdOut"] = expand.Replace(r.StdOut)
	}
	if r.StdErr != "" {
		v["StdErr"] = expand.Replace(r.StdErr)
	}
}

func nodeRange(r *job.Request) string {
	if r.MaxNodes != 0 {
		return fmt.Sprintf("%d-%d", r.MinNodes, r.MaxNodes)
	}
	return strconv.Itoa(r.MinNodes)
}

// limit prints a time limit as scontrol does: [D-]HH:MM:SS or UNLIMITED.
func limit(d time.Duration) string {
	if d == slurmtime.Unlimited {
		return "UNLIMITED"
	}
	m := int64(d / time.Minute)
	if m >= 1440 {
		return fmt.Sprintf("%d-%02d:%02d:00", m/1440, m/60%24, m%60)
	}
	return fmt.Sprintf("%02d:%02d:00", m/60, m%60)
}

func orNull(s string) string {
	if s == "" {
		return "(null)"
	}
	return s
}
