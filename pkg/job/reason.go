package job

// Reason says why a job waits or why it ended, spelled exactly as Slurm's
// squeue %r and scontrol Reason= print it ("Resources", "JobHeldUser").
type Reason string

// Slurm's reasons that Loam's controller and scheduler set.
const (
	ReasonNone                     Reason = "None"
	ReasonPriority                 Reason = "Priority"
	ReasonResources                Reason = "Resources"
	ReasonDependency               Reason = "Dependency"
	ReasonDependencyNeverSatisfied Reason = "DependencyNeverSatisfied"
	ReasonBeginTime                Reason = "BeginTime"
	ReasonJobHeldUser              Reason = "JobHeldUser"
	ReasonJobHeldAdmin             Reason = "JobHeldAdmin"
	ReasonJobHoldMaxRequeue        Reason = "JobHoldMaxRequeue"
	ReasonPartitionTimeLimit       Reason = "PartitionTimeLimit"
	ReasonPartitionNodeLimit       Reason = "PartitionNodeLimit"
	ReasonPartitionConfig          Reason = "PartitionConfig"
	ReasonPartitionDown            Reason = "PartitionDown"
	ReasonPartitionInactive        Reason = "PartitionInactive"
	ReasonReqNodeNotAvail          Reason = "ReqNodeNotAvail"
	ReasonNodeDown                 Reason = "NodeDown"
	ReasonBadConstraints           Reason = "BadConstraints"
	ReasonReservation              Reason = "Reservation"
	ReasonReservationDeleted       Reason = "ReservationDeleted"
	ReasonJobArrayTaskLimit        Reason = "JobArrayTaskLimit"
	ReasonLicenses                 Reason = "Licenses"
	ReasonProlog                   Reason = "Prolog"
	ReasonCleaning                 Reason = "Cleaning"
	ReasonSchedDefer               Reason = "SchedDefer"
	ReasonInvalidAccount           Reason = "InvalidAccount"
	ReasonInvalidQOS               Reason = "InvalidQOS"
	ReasonAccountNotAllowed        Reason = "AccountNotAllowed"
	ReasonQOSNotAllowed            Reason = "QOSNotAllowed"
	ReasonAccountingPolicy         Reason = "AccountingPolicy"

	// Limits of associations (Slurm accounts and users) and QOS; Loam's
	// tenants and per-user caps report through the same names.
	ReasonAssocGrpGRES             Reason = "AssocGrpGRES"
	ReasonAssocGrpCpuLimit         Reason = "AssocGrpCpuLimit"
	ReasonAssocGrpMemLimit         Reason = "AssocGrpMemLimit"
	ReasonAssocGrpNodeLimit        Reason = "AssocGrpNodeLimit"
	ReasonAssocMaxJobsLimit        Reason = "AssocMaxJobsLimit"
	ReasonAssocMaxSubmitJobLimit   Reason = "AssocMaxSubmitJobLimit"
	ReasonAssocMaxGRESPerJob       Reason = "AssocMaxGRESPerJob"
	ReasonQOSGrpGRES               Reason = "QOSGrpGRES"
	ReasonQOSMaxGRESPerJob         Reason = "QOSMaxGRESPerJob"
	ReasonQOSMaxGRESPerNode        Reason = "QOSMaxGRESPerNode"
	ReasonQOSMaxGRESPerUser        Reason = "QOSMaxGRESPerUser"
	ReasonQOSMaxJobsPerUserLimit   Reason = "QOSMaxJobsPerUserLimit"
	ReasonQOSMaxSubmitJobPerUser   Reason = "QOSMaxSubmitJobPerUserLimit"
	ReasonQOSMaxWallDurationPerJob Reason = "QOSMaxWallDurationPerJobLimit"

	// Reasons of ended jobs.
	ReasonNonZeroExitCode  Reason = "NonZeroExitCode"
	ReasonTimeLimit        Reason = "TimeLimit"
	ReasonJobLaunchFailure Reason = "JobLaunchFailure"
	ReasonOutOfMemory      Reason = "OutOfMemory"
	ReasonSystemFailure    Reason = "SystemFailure"
	ReasonInactiveLimit    Reason = "InactiveLimit"
	ReasonDeadLine         Reason = "DeadLine"
)

// DescNodesUnavailable is the description Slurm's scheduler gives
// Reason=Resources when fewer of the partition's nodes are up than the
// job needs; squeue and scontrol print it in the reason's place.
const DescNodesUnavailable = "Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions"

// Loam's own reasons. Slurm has no such names; they show in squeue as they
// are spelled here.
const (
	// ReasonQuotaReclaim (Loam): the job waits while GPUs its tenant lent to
	// others are reclaimed by preempting the borrowers.
	ReasonQuotaReclaim Reason = "QuotaReclaim"
)

// String returns the reason as squeue prints it.
func (r Reason) String() string { return string(r) }

// BackfillTried reports whether slurmctld's backfill pass keeps trying to
// place a job pending for this reason: it skips held jobs, jobs waiting
// on a dependency, a begin time, their array's throttle or their
// partition, and those not yet looked at. scontrol shows such a job
// Scheduler=Backfill:* and its LastSchedEval as that pass's time.
func (r Reason) BackfillTried() bool {
	switch r {
	case ReasonNone, ReasonJobHeldUser, ReasonJobHeldAdmin, ReasonJobHoldMaxRequeue,
		ReasonDependency, ReasonDependencyNeverSatisfied, ReasonBeginTime, ReasonJobArrayTaskLimit,
		ReasonPartitionDown, ReasonPartitionInactive, ReasonPartitionTimeLimit,
		ReasonPartitionNodeLimit, ReasonPartitionConfig, ReasonBadConstraints:
		return false
	}
	return true
}
