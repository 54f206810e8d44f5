package controller

import (
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// CpuBind of nodes and partitions: the binding a step gets when srun
// gives no --cpu-bind, as slurmctld's _set_def_cpu_bind chooses it.

// checkCPUBind refuses a CpuBind update that is not one Slurm takes
// (scontrol checked it already; this guards other clients).
func checkCPUBind(v *string) *api.Error {
	if v == nil {
		return nil
	}
	if _, err := slurmconf.ParseCPUBind(*v); err != nil {
		return api.Errorf(api.CodeBadRequest, "Invalid input cpubind=%s", *v)
	}
	return nil
}

// updatedCPUBind is a node's or partition's CpuBind after scontrol update
// CpuBind=v: "off" alone clears it (slurmctld stores no binding for
// CPU_BIND_OFF), an empty value changes nothing, anything else replaces
// it (as ParseCPUBind spells it; "verbose,off" is kept as such).
func updatedCPUBind(old, v string) string {
	canon, err := slurmconf.ParseCPUBind(v)
	switch {
	case err != nil || canon == "":
		return old
	case canon == "off":
		return ""
	}
	return canon
}

// stepCPUBind is the --cpu-bind a step's tasks are bound with. A step
// that gives one keeps it (--cpu-bind=none stays no binding; so does
// --cpu-bind=verbose alone, as srun then asks for no default). Otherwise
// the nodes' CpuBind applies when every node of the job that sets one
// sets the same (nodes without one do not count), else the partition's;
// without either there is no binding (Loam has no TaskPluginParam
// default). CpuBind=off binds nothing, as "none" does.
func stepCPUBind(given string, nodeBinds []string, partBind string) string {
	if given != "" {
		return given
	}
	def := nodesCPUBind(nodeBinds)
	if def == "" {
		def = partBind
	}
	return cpuBindSpec(def)
}

// nodesCPUBind is the CpuBind the nodes that set one agree on, "" when
// none sets one or two differ.
func nodesCPUBind(binds []string) string {
	agreed := ""
	for _, b := range binds {
		if b == "" {
			continue
		}
		if agreed != "" && agreed != b {
			return ""
		}
		agreed = b
	}
	return agreed
}

// cpuBindSpec turns a CpuBind value into the --cpu-bind form the nodes
// bind with: "off" (no binding) becomes "none".
func cpuBindSpec(v string) string {
	verbose, bind, ok := strings.Cut(v, ",")
	if !ok {
		verbose, bind = "", v
	}
	if bind == "off" {
		bind = "none"
	}
	if verbose != "" {
		return verbose + "," + bind
	}
	return bind
}

// jobCPUBinds returns the CpuBind of each node of r's allocation and of
// its partition. c.mu must be held.
func (c *Controller) jobCPUBinds(r *jobRecord) (nodes []string, part string) {
	conf := c.confNow().conf
	for _, a := range r.St.Alloc {
		if nc, ok := conf.Node(a.Node); ok {
			nodes = append(nodes, nc.CPUBind)
		}
	}
	if p, ok := conf.Partition(r.St.Partition); ok {
		part = p.CPUBind
	}
	return nodes, part
}
