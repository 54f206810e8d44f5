package controller

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/resource"
)

// stepShow is what scontrol show step and squeue -s print of an srun step
// beyond its layout, fixed when the step is created. The rules are Slurm
// 22.05's, recorded from the peer cluster (tools/command/testdata/
// scontrol-show-step.peer).
type stepShow struct {
	// Dist is the task distribution's name ("Block", "Cyclic").
	Dist string `json:"dist,omitempty"`
	// SrunHost and SrunPid are srun's.
	SrunHost string `json:"srun_host,omitempty"`
	SrunPid  int    `json:"srun_pid,omitempty"`
	// Memory is the job's memory on the step's nodes, MB; GPUs the step's
	// GPU count.
	Memory int64 `json:"memory,omitempty"`
	GPUs   int   `json:"gpus,omitempty"`
	// The TRES the step asked for, as Slurm's TresBind, TresPerStep,
	// TresPerNode and TresPerTask print them; "" prints nothing.
	TRESBind    string `json:"tres_bind,omitempty"`
	TRESPerStep string `json:"tres_per_step,omitempty"`
	TRESPerNode string `json:"tres_per_node,omitempty"`
	TRESPerTask string `json:"tres_per_task,omitempty"`
}

// newStepShow describes step in of job r laid out as l. A step runs with
// every CPU the job has on its nodes (Slurm 22.05's default without
// --exact), so its CPUs are those.
func newStepShow(r *jobRecord, in *api.StepCreateRequest, l *api.StepLayout) (stepShow, int) {
	s := stepShow{Dist: distName(in.Distribution, l), SrunHost: in.SubmitHost, SrunPid: in.SrunPid}
	cpus := 0
	for _, n := range l.Nodes {
		cpus += n.CPUs
		s.GPUs += len(n.GPUs)
		for _, a := range r.St.Alloc {
			if a.Node == n.Node {
				s.Memory += a.Memory
			}
		}
	}
	s.stepTRES(r, in, l)
	return s, cpus
}

// stepTRES fills the TRES the step asked for. srun always asks for
// "cpu:N" per step; a step that names no GPUs takes the job's GPU
// requests instead of its own, as slurmctld does.
func (s *stepShow) stepTRES(r *jobRecord, in *api.StepCreateRequest, l *api.StepLayout) {
	if in.GPUs == 0 && in.GPUsPerNode == 0 && in.GPUsPerTask == 0 {
		q := r.Req
		s.TRESPerStep = resource.FormatTRESPer(q.GPUs)
		s.TRESPerNode = resource.FormatTRESPer(append(append([]resource.GRES{}, q.GRES...), q.GPUsPerNode...))
		s.TRESPerTask = resource.FormatTRESPer(q.GPUsPerTask)
		return
	}
	count := l.Tasks
	switch {
	case in.Overcommit:
		count = len(l.Nodes)
	case in.CPUsPerTask > 0:
		count = l.Tasks * in.CPUsPerTask
	}
	s.TRESPerStep = joinTRES("cpu:"+strconv.Itoa(count), gpuTRES(in.GPUs))
	s.TRESPerNode = gpuTRES(in.GPUsPerNode)
	perTask := ""
	if in.CPUsPerTask > 0 {
		perTask = "cpu:" + strconv.Itoa(in.CPUsPerTask)
	}
	s.TRESPerTask = joinTRES(perTask, gpuTRES(in.GPUsPerTask))
	switch {
	case in.GPUBind != "":
		s.TRESBind = "gpu:" + in.GPUBind
	case in.GPUsPerTask > 0:
		s.TRESBind = "gpu:per_task:" + strconv.Itoa(in.GPUsPerTask)
	}
}

func gpuTRES(n int) string {
	if n <= 0 {
		return ""
	}
	return "gres:gpu:" + strconv.Itoa(n)
}

func joinTRES(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "," + b
}

// distName names a step's distribution as Slurm prints it: -m's kinds
// capitalised ("block:cyclic" is "Block:Cyclic"), or without -m Cyclic
// when there are no more tasks than nodes and Block otherwise.
func distName(spec string, l *api.StepLayout) string {
	if spec == "" {
		if l.Tasks <= len(l.Nodes) {
			return "Cyclic"
		}
		return "Block"
	}
	parts := strings.Split(spec, ":")
	parts = parts[:min(len(parts), 2)]
	for i, p := range parts {
		p, _, _ = strings.Cut(strings.ToLower(p), "=") // plane=4
		p, _, _ = strings.Cut(p, ",")                  // block,Pack
		if p == "*" || p == "" {
			parts = parts[:i]
			break
		}
		parts[i] = strings.ToUpper(p[:1]) + p[1:]
	}
	if len(parts) == 0 {
		return distName("", l)
	}
	return strings.Join(parts, ":")
}

// stepTRESAlloc is the step's TRES= line: CPUs, memory, nodes, and its
// GPUs as the job's TRES counts them (only when tracked, see gpuTRESRule).
func stepTRESAlloc(cpus int, sh *stepShow, nodes int, gpus gpuTRESRule, gpuType string) string {
	var t resource.TRES
	t.Set(resource.TRESCPU, int64(cpus))
	if sh.Memory > 0 {
		t.Set(resource.TRESMem, sh.Memory)
	}
	t.Set(resource.TRESNode, int64(nodes))
	gpus.add(&t, gpuType, sh.GPUs)
	return t.String()
}
