package sched

import "github.com/loamhpc/loam/pkg/job"

// Pending reasons, spelled exactly as Slurm's job_state_reason table spells
// them, so squeue and scontrol show what a Slurm user expects.
const (
	ReasonPriority                 Reason = "Priority"
	ReasonResources                Reason = "Resources"
	ReasonDependency               Reason = "Dependency"
	ReasonDependencyNeverSatisfied Reason = "DependencyNeverSatisfied"
	ReasonJobHeldUser              Reason = "JobHeldUser"
	ReasonJobHeldAdmin             Reason = "JobHeldAdmin"
	ReasonBeginTime                Reason = "BeginTime"
	ReasonPartitionTimeLimit       Reason = "PartitionTimeLimit"
	ReasonPartitionNodeLimit       Reason = "PartitionNodeLimit"
	ReasonPartitionDown            Reason = "PartitionDown"
	ReasonPartitionInactive        Reason = "PartitionInactive"
	// ReasonMaxMemPerLimit: the job asks more memory per node than the
	// partition's MaxMemPerNode.
	ReasonMaxMemPerLimit Reason = "MaxMemPerLimit"
	// ReasonPartitionConfig: the request can never fit a node of the
	// partition (more GPUs, CPUs or memory per node than any node has), or
	// names a partition that does not exist.
	ReasonPartitionConfig   Reason = "PartitionConfig"
	ReasonAccountNotAllowed Reason = "AccountNotAllowed"
	ReasonInvalidAccount    Reason = "InvalidAccount"
	// ReasonBadConstraints: no node of the partition has the requested
	// features or GPU type, or the request is malformed.
	ReasonBadConstraints Reason = "BadConstraints"
	// ReasonReqNodeNotAvail: a node named with -w (or every node that could
	// run the job) is down, drained or reserved. Slurm appends the nodes:
	// "ReqNodeNotAvail, UnavailableNodes:n[1-2]".
	ReasonReqNodeNotAvail Reason = "ReqNodeNotAvail"
	// ReasonNodesUnavailable: some of the partition's nodes are up (not
	// down, drained or failing) but fewer than the job needs. It is
	// Slurm's description of Reason=Resources, which squeue and scontrol
	// print in its place.
	ReasonNodesUnavailable  Reason = job.DescNodesUnavailable
	ReasonQOSMaxGRESPerUser Reason = "QOSMaxGRESPerUser"
	ReasonQOSMaxCPUPerUser  Reason = "QOSMaxCpuPerUserLimit"
	ReasonQOSMaxMemPerUser  Reason = "QOSMaxMemoryPerUser"
	ReasonQOSMaxNodePerUser Reason = "QOSMaxNodePerUserLimit"
	ReasonAssocGrpGRES      Reason = "AssocGrpGRES"
	ReasonAssocGrpCPU       Reason = "AssocGrpCpuLimit"
	ReasonAssocGrpMem       Reason = "AssocGrpMemLimit"
	ReasonAssocGrpNode      Reason = "AssocGrpNodeLimit"
	ReasonAssocMaxJobs      Reason = "AssocMaxJobsLimit"
	ReasonAssocGrpJobs      Reason = "AssocGrpJobsLimit"
	ReasonJobArrayTaskLimit Reason = "JobArrayTaskLimit"
	reasonUnavailablePrefix        = ", UnavailableNodes:"
)
