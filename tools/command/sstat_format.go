package command

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/resource"
)

// Usage fields shared by sacct (a step's use at its end) and sstat (a
// running step's), printed as Slurm prints them: sizes in bytes with
// exact unit conversion ("1264K"), CPU times of a whole step to the
// millisecond ("01:02.345"), per-task CPU figures in whole seconds, and
// the TRESUsage* strings as "cpu=...,mem=...".

// cpuTime prints a CPU time in microseconds as sacct's TotalCPU, UserCPU
// and SystemCPU: [D-]HH:MM:SS from an hour on, MM:SS.mmm below it when
// there are milliseconds, else 00:MM:SS.
func cpuTime(usec int64) string {
	secs, ms := usec/1_000_000, usec%1_000_000/1000
	d, h, m, s := secs/86400, secs/3600%24, secs/60%60, secs%60
	switch {
	case d > 0:
		return fmt.Sprintf("%d-%02d:%02d:%02d", d, h, m, s)
	case h > 0:
		return fmt.Sprintf("%02d:%02d:%02d", h, m, s)
	case ms > 0:
		return fmt.Sprintf("%02d:%02d.%03d", m, s, ms)
	}
	return fmt.Sprintf("00:%02d:%02d", m, s)
}

// cpuSecs prints a per-task CPU figure (AveCPU, MinCPU), kept by Slurm
// in milliseconds and printed in whole seconds.
func cpuSecs(usec int64) string { return cpuTime(usec / 1_000_000 * 1_000_000) }

// tresCPU prints a CPU time inside a TRESUsage string: whole seconds as
// HH:MM:SS.
func tresCPU(usec int64) string { return string(appendHMS(nil, usec/1_000_000)) }

// usageValue is usage field name of a step with ntasks tasks whose use is
// u (nil: not measured); "" prints blank.
func usageValue(name string, u *api.StepUsage, ntasks int) string {
	var s api.UsageSummary
	ok := false
	if u != nil {
		s, ok = u.Summary()
	}
	switch name {
	case "NTasks":
		if ntasks > 0 {
			return strconv.Itoa(ntasks)
		}
		if ok {
			return strconv.Itoa(s.NTasks)
		}
		return ""
	case "TotalCPU":
		return cpuTime(s.TotalUsec())
	case "UserCPU":
		return cpuTime(s.UserUsec)
	case "SystemCPU":
		return cpuTime(s.SysUsec)
	}
	if !ok {
		return ""
	}
	if v, found := usageTRES(name, s); found {
		return v
	}
	return usageScalar(name, s)
}

// usageScalar is one of the per-task statistics.
func usageScalar(name string, s api.UsageSummary) string {
	vm := func(v string) string {
		if !s.VMMeasured {
			return ""
		}
		return v
	}
	switch name {
	case "MaxRSS":
		return resource.FormatSize(s.MaxRSS)
	case "MaxRSSNode":
		return s.MaxRSSNode
	case "MaxRSSTask":
		return strconv.Itoa(s.MaxRSSTask)
	case "AveRSS":
		return resource.FormatSize(s.AveRSS)
	case "MaxVMSize":
		return vm(resource.FormatSize(s.MaxVM))
	case "MaxVMSizeNode":
		return vm(s.MaxVMNode)
	case "MaxVMSizeTask":
		return vm(strconv.Itoa(s.MaxVMTask))
	case "AveVMSize":
		return vm(resource.FormatSize(s.AveVM))
	case "MinCPU":
		return cpuSecs(s.MinCPUUsec)
	case "MinCPUNode":
		return s.MinCPUNode
	case "MinCPUTask":
		return strconv.Itoa(s.MinCPUTask)
	case "AveCPU":
		return cpuSecs(s.AveCPUUsec)
	}
	return ""
}

// usageTRES is one of the TRESUsageIn* strings: cpu, mem and, where
// measured, vmem, in Slurm's TRES order.
func usageTRES(name string, s api.UsageSummary) (string, bool) {
	var cpu, mem, vmem string
	switch name {
	case "TRESUsageInAve":
		cpu, mem, vmem = tresCPU(s.AveCPUUsec), resource.FormatSize(s.AveRSS), resource.FormatSize(s.AveVM)
	case "TRESUsageInMax":
		cpu, mem, vmem = tresCPU(s.MaxCPUUsec), resource.FormatSize(s.MaxRSS), resource.FormatSize(s.MaxVM)
	case "TRESUsageInMaxNode":
		cpu, mem, vmem = s.MaxCPUNode, s.MaxRSSNode, s.MaxVMNode
	case "TRESUsageInMaxTask":
		cpu, mem, vmem = strconv.Itoa(s.MaxCPUTask), strconv.Itoa(s.MaxRSSTask), strconv.Itoa(s.MaxVMTask)
	case "TRESUsageInMin":
		cpu, mem = tresCPU(s.MinCPUUsec), resource.FormatSize(s.MinRSS)
	case "TRESUsageInMinNode":
		cpu, mem = s.MinCPUNode, s.MinRSSNode
	case "TRESUsageInMinTask":
		cpu, mem = strconv.Itoa(s.MinCPUTask), strconv.Itoa(s.MinRSSTask)
	case "TRESUsageInTot":
		cpu, mem, vmem = tresCPU(s.TotalUsec()), resource.FormatSize(s.TotalRSS), resource.FormatSize(s.TotalVM)
	default:
		return "", false
	}
	parts := []string{"cpu=" + cpu, "mem=" + mem}
	if s.VMMeasured && vmem != "" {
		parts = append(parts, "vmem="+vmem)
	}
	return strings.Join(parts, ","), true
}

// jobCPU is a job line's TotalCPU, UserCPU or SystemCPU: the sum of its
// steps', as Slurm's accounting keeps it.
func jobCPU(name string, j *api.AcctJob) string {
	var user, sys int64
	for _, st := range j.Steps {
		if st.Usage == nil {
			continue
		}
		if s, ok := st.Usage.Summary(); ok {
			user += s.UserUsec
			sys += s.SysUsec
		}
	}
	switch name {
	case "UserCPU":
		return cpuTime(user)
	case "SystemCPU":
		return cpuTime(sys)
	}
	return cpuTime(user + sys)
}

// acctUsage is a usage field of sacct: measured per step (blank on the
// job line), but for the CPU times, whose job line sums the steps.
func acctUsage(name string) func(r acctRow, p *acctPrinter) string {
	return func(r acctRow, _ *acctPrinter) string {
		if r.step != nil {
			return usageValue(name, r.step.Usage, r.step.Tasks)
		}
		switch name {
		case "TotalCPU", "UserCPU", "SystemCPU":
			return jobCPU(name, r.j)
		}
		return ""
	}
}
