package command

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/resource"
)

// nodeState prints a node's state as scontrol does: the base state and
// its flags joined with "+" ("IDLE+DRAIN").
func nodeState(n *api.Node) string {
	s := n.State
	for _, f := range n.StateFlags {
		s += "+" + f
	}
	return s
}

// nodeTRES prints a node's configured TRES as Slurm's CfgTRES; its GPUs
// only when the cluster tracks them (AccountingStorageTRES).
func nodeTRES(n *api.Node) string {
	cpus := effectiveCPUs(n) // the peer's CfgTRES counts CPUEfctv
	s := "cpu=" + strconv.Itoa(cpus) + ",mem=" + resource.FormatTRESMemory(n.RealMemory) + ",billing=" + strconv.Itoa(cpus)
	if n.CfgGRESTRES != "" {
		s += "," + n.CfgGRESTRES
	}
	return s
}

// allocTRES prints what jobs hold on a node as AllocTRES ("" for none).
func allocTRES(n *api.Node) string {
	if n.AllocCPUs == 0 && n.AllocMemory == 0 {
		return ""
	}
	s := "cpu=" + strconv.Itoa(n.AllocCPUs)
	if n.AllocMemory > 0 {
		s += ",mem=" + resource.FormatTRESMemory(n.AllocMemory)
	}
	if n.AllocGRESTRES != "" {
		s += "," + n.AllocGRESTRES
	}
	return s
}

// appendNode appends scontrol show node's record.
func (f *jobFormatter) appendNode(b []byte, n *api.Node) []byte {
	sep := f.sep()
	b = append(b, "NodeName="+n.Name+" Arch=x86_64 "...)
	if n.CPUBind != "" {
		b = append(b, "CpuBind="+n.CPUBind+" "...)
	}
	b = append(b, "CoresPerSocket="+strconv.Itoa(n.CoresPerSocket)+" "+sep...)
	b = append(b, "CPUAlloc="+strconv.Itoa(n.AllocCPUs)+" CPUEfctv="+strconv.Itoa(effectiveCPUs(n))+" CPUTot="+
		strconv.Itoa(n.CPUs)+" CPULoad="+strconv.FormatFloat(n.CPULoad, 'f', 2, 64)+sep...)
	b = append(b, "AvailableFeatures="+orNull(strings.Join(n.Features, ","))+sep...)
	active := n.ActiveFeatures
	if active == nil {
		active = n.Features
	}
	b = append(b, "ActiveFeatures="+orNull(strings.Join(active, ","))+sep...)
	b = append(b, "Gres="+orNull(n.GRES)+sep...)
	if f.detail {
		b = append(b, "GresDrain=N/A"+sep...)
		b = append(b, "GresUsed="+orNull(gresUsed(n))+sep...)
	}
	addr := ""
	if n.Address != "" {
		addr += "NodeAddr=" + n.Address + " "
	}
	if n.Hostname != "" {
		addr += "NodeHostName=" + n.Hostname + " "
	}
	if n.Port != 0 {
		addr += "Port=" + strconv.Itoa(n.Port) + " "
	}
	if n.Version != "" {
		addr += "Version=" + n.Version
	}
	if addr != "" {
		b = append(b, addr+sep...)
	}
	if n.OperatingSystem != "" {
		b = append(b, "OS="+n.OperatingSystem+" "+sep...)
	}
	free := "N/A"
	if n.FreeMemory > 0 {
		free = strconv.FormatInt(n.FreeMemory, 10)
	}
	b = append(b, "RealMemory="+strconv.FormatInt(n.RealMemory, 10)+" AllocMem="+strconv.FormatInt(n.AllocMemory, 10)+
		" FreeMem="+free+" Sockets="+strconv.Itoa(n.Sockets)+" Boards="+strconv.Itoa(max(n.Boards, 1))+sep...)
	if spec := nodeSpec(n); spec != "" { // scontrol_corespec.go
		b = append(b, spec+sep...)
	}
	b = append(b, "State="+nodeState(n)+" ThreadsPerCore="+strconv.Itoa(n.ThreadsPerCore)+" TmpDisk="+
		strconv.FormatInt(n.TmpDisk, 10)+" Weight="+strconv.FormatInt(n.Weight, 10)+" Owner=N/A MCS_label=N/A"+sep...)
	if len(n.Partitions) > 0 {
		b = append(b, "Partitions="+strings.Join(n.Partitions, ",")+" "+sep...)
	}
	b = append(b, "BootTime="+f.timeOr(n.BootTime, "None")+" SlurmdStartTime="+f.timeOr(n.SlurmdStart, "None")+sep...)
	b = append(b, "LastBusyTime="+f.time(n.LastBusy)+sep...)
	b = append(b, "CfgTRES="+nodeTRES(n)+sep...)
	b = append(b, "AllocTRES="+allocTRES(n)+sep...)
	b = append(b, "CapWatts=n/a"+sep+"CurrentWatts=0 AveWatts=0"+sep...)
	b = append(b, "ExtSensorsJoules=n/s ExtSensorsWatts=0 ExtSensorsTemp=n/s"...)
	if n.Reason != "" {
		b = append(b, sep+"Reason="+n.Reason...)
		if n.ReasonTime != 0 {
			b = append(b, " ["+orDefault(n.ReasonUser, "root")+"@"+f.time(n.ReasonTime)+"]"...)
		}
	}
	if n.Comment != "" {
		b = append(b, sep+"Comment="+n.Comment...)
	}
	if n.Extra != "" {
		b = append(b, sep+"Extra="+n.Extra...)
	}
	if len(n.GPUs) > 0 && f.detail {
		b = append(b, sep+"GPUs="+gpuList(n)...)
	}
	if f.oneLine {
		return append(b, '\n')
	}
	return append(b, "\n\n"...)
}

func (f *jobFormatter) timeOr(unix int64, unset string) string {
	if unix == 0 {
		return unset
	}
	return f.time(unix)
}

// gresUsed prints what jobs hold of a node's GPUs ("gpu:8"), as scontrol
// -d's GresUsed, with the node's GPU type when it has one; a node without
// GPUs prints "gpu:0", as in Slurm with GresTypes=gpu.
func gresUsed(n *api.Node) string {
	if n.GRESUsed != "" {
		return n.GRESUsed
	}
	if n.GRES == "" {
		return "gpu:0"
	}
	name, _ := gresCount(n.GRES)
	if name == "" {
		name = "gpu"
	}
	return name + ":" + strconv.Itoa(n.AllocGPUs)
}

// gpuList prints Loam's per-GPU view of a node (-d): index, model and the
// job holding it, borrowed GPUs marked.
func gpuList(n *api.Node) string {
	var parts []string
	for _, g := range n.GPUs {
		s := strconv.Itoa(g.Index)
		if g.JobID != 0 {
			s += ":job" + u32(g.JobID)
			if g.Borrowed {
				s += ":borrowed"
			}
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ",")
}

// appendPartition appends scontrol show partition's record; totalMem is
// the partition's memory (MB) for its TRES.
func (f *jobFormatter) appendPartition(b []byte, p *api.Partition, totalMem int64) []byte {
	sep := f.sep()
	b = append(b, "PartitionName="+p.Name+sep...)
	accounts := allowDeny("Accounts", p.AllowAccounts, p.DenyAccounts)
	qos := allowDeny("Qos", p.AllowQOS, p.DenyQOS)
	groups := "ALL"
	if len(p.AllowGroups) > 0 {
		groups = strings.Join(p.AllowGroups, ",")
	}
	b = append(b, "AllowGroups="+groups+" "+accounts+" "+qos+sep...)
	b = append(b, "AllocNodes="+orDefault(p.AllocNodes, "ALL")...)
	if p.Alternate != "" {
		b = append(b, " Alternate="+p.Alternate...)
	}
	b = append(b, " Default="+yesNo(p.Default)...)
	if p.CPUBind != "" {
		b = append(b, " CpuBind="+p.CPUBind+" "...) // the peer's double space follows
	}
	b = append(b, " QoS=N/A"+sep...)
	def := "NONE"
	if p.DefaultTime != 0 {
		def = string(appendHMS(nil, p.DefaultTime))
	}
	b = append(b, "DefaultTime="+def+" DisableRootJobs="+yesNo(p.DisableRootJobs)+" ExclusiveUser="+yesNo(p.ExclusiveUser)+" GraceTime="+
		strconv.FormatInt(p.GraceTime, 10)+" Hidden="+yesNo(p.Hidden)+sep...)
	b = append(b, "MaxNodes="+unlimited(p.MaxNodes)+" MaxTime="+string(appendHMS(nil, p.MaxTime))+
		" MinNodes="+strconv.FormatInt(p.MinNodes, 10)+" LLN="+yesNo(p.LLN)+" MaxCPUsPerNode="+unlimited(p.MaxCPUsPerNode)+sep...)
	b = append(b, "Nodes="+orNull(p.Nodes)+sep...) // (null): a partition made empty or created without nodes
	b = append(b, "PriorityJobFactor="+strconv.Itoa(p.PriorityJobFactor)+" PriorityTier="+strconv.Itoa(p.PriorityTier)+
		" RootOnly="+yesNo(p.RootOnly)+" ReqResv="+yesNo(p.ReqResv)+" OverSubscribe="+orDefault(p.OverSubscribe, "NO")+sep...)
	b = append(b, "OverTimeLimit="+overTimeText(p.OverTimeLimit)+" PreemptMode="+orDefault(p.PreemptMode, "OFF")+sep...)
	b = append(b, "State="+orDefault(p.State, "UP")+" TotalCPUs="+strconv.Itoa(p.TotalCPUs)+" TotalNodes="+
		strconv.Itoa(p.TotalNodes)+" SelectTypeParameters=NONE"+sep...)
	b = append(b, "JobDefaults="+jobDefaults(p)+sep...)
	b = append(b, defMem(p)+" "+maxMem(p)+sep...)
	if p.TotalNodes == 0 {
		b = append(b, "TRES=(null)"...)
	} else {
		cpus := partEffectiveCPUs(p) // scontrol_corespec.go
		b = append(b, "TRES=cpu="+strconv.Itoa(cpus)+",mem="+resource.FormatTRESMemory(totalMem)+
			",node="+strconv.Itoa(p.TotalNodes)+",billing="+strconv.Itoa(partBilling(p, cpus))...)
		if p.GRESTRES != "" { // tracked GPUs (AccountingStorageTRES)
			b = append(b, ","+p.GRESTRES...)
		}
	}
	if p.TRESBillingWeights != "" {
		b = append(b, sep+"TRESBillingWeights="+p.TRESBillingWeights...)
	}
	if p.QueueClass != "" {
		b = append(b, sep+"QueueClass="+p.QueueClass+" AgingRate="+strconv.FormatFloat(p.AgingRate, 'g', -1, 64)+
			" AgingCap="+strconv.FormatFloat(p.AgingCap, 'g', -1, 64)+" ReservationTimeout="+
			string(appendHMS(nil, p.ReservationTimeout))+" ReservationDepth="+strconv.Itoa(p.ReservationDepth)+
			" ReservationMode="+orNull(p.ReservationMode)+" CheckpointSignal="+orNull(p.CheckpointSignal)+
			" RequiredMounts="+orNull(strings.Join(p.RequiredMounts, ","))...)
	}
	if f.oneLine {
		return append(b, '\n')
	}
	return append(b, "\n\n"...)
}

// allowDeny is a partition's Allow<kind>= list, else its Deny<kind>=
// list, else Allow<kind>=ALL, as scontrol show partition prints them.
func allowDeny(kind string, allow, deny []string) string {
	switch {
	case len(allow) > 0:
		return "Allow" + kind + "=" + strings.Join(allow, ",")
	case len(deny) > 0:
		return "Deny" + kind + "=" + strings.Join(deny, ",")
	}
	return "Allow" + kind + "=ALL"
}

func yesNo(v bool) string {
	if v {
		return "YES"
	}
	return "NO"
}

// unlimited prints a count or size, UNLIMITED for Slurm's unlimited
// (negative or 0 from the controller).
func unlimited(n int64) string {
	if n <= 0 || n >= 1<<53 {
		return "UNLIMITED"
	}
	return strconv.FormatInt(n, 10)
}

// defMem is the partition's DefMemPerCPU when set, else DefMemPerNode, as
// the peer prints them; its own DefMemPerGPU shows in JobDefaults.
func defMem(p *api.Partition) string {
	if p.DefMemPerCPU > 0 {
		return "DefMemPerCPU=" + strconv.FormatInt(p.DefMemPerCPU, 10)
	}
	return "DefMemPerNode=" + unlimited(p.DefMemPerNode)
}

// maxMem is the partition's MaxMemPerCPU when set, else MaxMemPerNode, as
// the peer prints them ("MaxMemPerCPU=2000", "MaxMemPerNode=UNLIMITED").
func maxMem(p *api.Partition) string {
	if p.MaxMemPerCPU > 0 {
		return "MaxMemPerCPU=" + strconv.FormatInt(p.MaxMemPerCPU, 10)
	}
	return "MaxMemPerNode=" + unlimited(p.MaxMemPerNode)
}

// partBilling is the billing a partition's TRES= shows: what its
// TRESBillingWeights price, else its CPUs.
func partBilling(p *api.Partition, cpus int) int {
	if p.TRESBillingWeights != "" {
		return int(p.Billing)
	}
	return cpus
}
