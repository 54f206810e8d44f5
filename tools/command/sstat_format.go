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

// usageFmt prints the sizes of usage fields: converted to the largest
// unit that keeps them exact ("1264K"), in bytes with --noconvert, or in
// sacct's --units unit ("20.66M"; it wins over --noconvert). sstat,
// unlike sacct, passes the task ids of TRESUsage*Task through each
// TRES's format ("cpu=00:00:00,mem=1"); sacct prints them plain.
type usageFmt struct {
	raw, sstat bool
	units      int // unitKilo..unitPeta; 0 when not given
}

func (f usageFmt) size(v int64) string {
	switch {
	case f.units > 0 && v != 0:
		return inUnit(float64(v), 0, f.units) // sacct_units.go
	case f.raw:
		return strconv.FormatInt(v, 10)
	}
	return resource.FormatSize(v)
}

// usageValue is usage field name of a step with ntasks tasks whose use is
// u (nil: not measured); "" prints blank.
func usageValue(name string, u *api.StepUsage, ntasks int, f usageFmt) string {
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
	if v, found := usageTRES(name, s, f); found {
		return v
	}
	return usageScalar(name, s, f)
}

// usageScalar is one of the per-task statistics.
func usageScalar(name string, s api.UsageSummary, f usageFmt) string {
	vm := func(v string) string {
		if !s.VMMeasured {
			return ""
		}
		return v
	}
	switch name {
	case "MaxRSS":
		return f.size(s.MaxRSS)
	case "MaxRSSNode":
		return s.MaxRSSNode
	case "MaxRSSTask":
		return strconv.Itoa(s.MaxRSSTask)
	case "AveRSS":
		return f.size(s.AveRSS)
	case "MaxVMSize":
		return vm(f.size(s.MaxVM))
	case "MaxVMSizeNode":
		return vm(s.MaxVMNode)
	case "MaxVMSizeTask":
		return vm(strconv.Itoa(s.MaxVMTask))
	case "AveVMSize":
		return vm(f.size(s.AveVM))
	case "MinCPU":
		return cpuSecs(s.MinCPUUsec)
	case "MinCPUNode":
		return s.MinCPUNode
	case "MinCPUTask":
		return strconv.Itoa(s.MinCPUTask)
	case "AveCPU":
		return cpuSecs(s.AveCPUUsec)
	case "MaxPages":
		return f.size(s.MaxPages)
	case "MaxPagesNode":
		return s.MaxPagesNode
	case "MaxPagesTask":
		return strconv.Itoa(s.MaxPagesTask)
	case "AvePages":
		return f.size(s.AvePages)
	}
	return ""
}

// tresKind is how a TRESUsage string prints its values: amounts, the
// nodes that had them, or the tasks.
type tresKind int

const (
	tresAmount tresKind = iota
	tresNode
	tresTask
)

// usageTRES is one of the TRESUsageIn* or TRESUsageOut* strings, keys by
// name as Slurm sorts them: cpu, energy (0: Loam has no energy plugin,
// as a Slurm cluster without one prints it), mem, pages (major page
// faults) and, where measured, vmem. Slurm's fs/disk is not measured. A task string has no energy; sstat passes its task ids through
// each TRES's own format, the cpu's as milliseconds ("cpu=00:00:00"), the
// sizes' as bytes, where sacct prints them plain ("cpu=1,mem=1").
func usageTRES(name string, s api.UsageSummary, f usageFmt) (string, bool) {
	stat, ok := strings.CutPrefix(name, "TRESUsageIn")
	if !ok {
		stat, ok = strings.CutPrefix(name, "TRESUsageOut")
		if !ok {
			return "", false
		}
		return usageTRESOut(stat, s)
	}
	var cpu, mem, pages, vm int64
	var cpuNode, memNode, pagesNode, vmNode string
	kind := tresAmount
	switch stat {
	case "Ave":
		cpu, mem, pages, vm = s.AveCPUUsec, s.AveRSS, s.AvePages, s.AveVM
	case "Max":
		cpu, mem, pages, vm = s.MaxCPUUsec, s.MaxRSS, s.MaxPages, s.MaxVM
	case "Min":
		cpu, mem, pages, vm = s.MinCPUUsec, s.MinRSS, s.MinPages, s.MinVM
	case "Tot":
		cpu, mem, pages, vm = s.TotalUsec(), s.TotalRSS, s.TotalPages, s.TotalVM
	case "MaxNode":
		kind, cpuNode, memNode, pagesNode, vmNode = tresNode, s.MaxCPUNode, s.MaxRSSNode, s.MaxPagesNode, s.MaxVMNode
	case "MinNode":
		kind, cpuNode, memNode, pagesNode, vmNode = tresNode, s.MinCPUNode, s.MinRSSNode, s.MinPagesNode, s.MinVMNode
	case "MaxTask":
		kind = tresTask
		cpu, mem, pages, vm = int64(s.MaxCPUTask), int64(s.MaxRSSTask), int64(s.MaxPagesTask), int64(s.MaxVMTask)
	case "MinTask":
		kind = tresTask
		cpu, mem, pages, vm = int64(s.MinCPUTask), int64(s.MinRSSTask), int64(s.MinPagesTask), int64(s.MinVMTask)
	default:
		return "", false
	}
	num := func(v int64) string { return strconv.FormatInt(v, 10) }
	var parts []string
	switch {
	case kind == tresAmount:
		parts = []string{"cpu=" + tresCPU(cpu), "energy=0", "mem=" + f.size(mem), "pages=" + f.size(pages), "vmem=" + f.size(vm)}
	case kind == tresNode:
		parts = []string{"cpu=" + cpuNode, "energy=" + s.FirstNode, "mem=" + memNode, "pages=" + pagesNode, "vmem=" + vmNode}
	case kind == tresTask && f.sstat:
		parts = []string{"cpu=" + string(appendHMS(nil, cpu/1000)), "mem=" + f.size(mem), "pages=" + f.size(pages), "vmem=" + f.size(vm)}
	default:
		parts = []string{"cpu=" + num(cpu), "mem=" + num(mem), "pages=" + num(pages), "vmem=" + num(vm)}
	}
	if !s.VMMeasured {
		parts = parts[:len(parts)-1]
	}
	return strings.Join(parts, ","), true
}

// usageTRESOut is a TRESUsageOut* string: Slurm's carries the energy and
// the disk writes; Loam measures neither and prints the energy as a
// Slurm cluster without an energy plugin does.
func usageTRESOut(stat string, s api.UsageSummary) (string, bool) {
	switch stat {
	case "Ave", "Max", "Min", "Tot":
		return "energy=0", true
	case "MaxNode", "MinNode":
		return "energy=" + s.FirstNode, true
	case "MaxTask", "MinTask":
		return "", true
	}
	return "", false
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
	return func(r acctRow, p *acctPrinter) string {
		if r.step != nil {
			return usageValue(name, r.step.Usage, r.step.Tasks, usageFmt{raw: p.noconvert, units: p.units})
		}
		switch name {
		case "TotalCPU", "UserCPU", "SystemCPU":
			return jobCPU(name, r.j)
		}
		return ""
	}
}
