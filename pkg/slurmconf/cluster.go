package slurmconf

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// clusterSchema lists slurm.conf's cluster-wide keys: those Loam honours,
// Loam's own, and every other key Slurm 22.05 (and later releases, where
// sites already use them) accepts, which Loam ignores with a warning.
var clusterSchema = newSchema("slurm.conf", func() []keySpec {
	return join(
		keys(honoured,
			"ClusterName", "SlurmctldPort", "SlurmdPort", "StateSaveLocation",
			"SlurmdSpoolDir", "TmpFS", "SlurmUser", "KillWait", "MinJobAge", "MaxJobCount",
			"MaxArraySize", "SlurmdTimeout", "InactiveLimit", "MessageTimeout",
			"SchedulerType", "SchedulerParameters", "PriorityType",
			"PriorityWeightAge", "PriorityWeightFairshare", "PriorityWeightJobSize",
			"PriorityWeightPartition", "PriorityWeightQOS", "PriorityWeightTRES",
			"PriorityDecayHalfLife", "PriorityMaxAge", "PriorityFavorSmall",
			"PreemptType", "PreemptMode", "PreemptExemptTime", "GresTypes",
			"MailProg", "DefMemPerCPU", "DefMemPerGPU", "MaxMemPerNode",
			"JobRequeue", "ReturnToService", "TopologyPlugin", "SelectType",
			"SelectTypeParameters", "ControlMachine", "ControlAddr",
			"BackupController", "BackupAddr", "ResvOverRun", "ReconfigFlags",
			"DependencyParameters", "AccountingStorageTRES",
			"EnforcePartLimits", "OverTimeLimit", "DisableRootJobs", // limits.go
			"DefMemPerNode", "MaxMemPerCPU", // memlimits.go
			"KillOnBadExit", "MaxTasksPerNode", "MaxStepCount", // steplimits.go
			"Licenses",      // licenses.go
			"PrivateData",   // privatedata.go
			"PriorityFlags", // billing.go: MAX_TRES
			"DefCPUPerGPU",  // partkeys.go
			// The submitter's limits jobs get: rlimits.go.
			"PropagateResourceLimits", "PropagateResourceLimitsExcept",
			"SlurmctldDebug", "SlurmctldLogFile", "SlurmdDebug", "SlurmdLogFile",
			// Read raw by the controller (Config.Written): AuthInfo's
			// cred_expire times a requeued job's wait, and
			// SlurmctldParameters' allow_user_triggers opens strigger.
			"AuthInfo", "SlurmctldParameters",
			// Scripts around tasks and srun, and the node health check
			// (scripts.go).
			"TaskProlog", "TaskEpilog", "SrunProlog", "SrunEpilog",
			"HealthCheckProgram", "HealthCheckInterval", "HealthCheckNodeState",
			// The node daemons' prolog and epilog (nodeprolog.go).
			"Prolog", "Epilog", "PrologFlags", "PrologEpilogTimeout",
			// The controller's scripts and exit-code requeue (ctldscripts.go).
			"PrologSlurmctld", "EpilogSlurmctld", "RequeueExit", "RequeueExitHold",
			"ResvProlog", "ResvEpilog",
			// Processes that outlive SIGKILL (unkillable.go).
			"UnkillableStepTimeout", "UnkillableStepProgram",
			// Loam's own cluster keys.
			"PriorityWeightCompensation", "LoamKeyFile", "LoamCtldSocket",
			"LoamNodedSocket", "LoamWebhookURL", "LoamAuditRetention"),
		[]keySpec{
			{name: "AuthType", use: ignored, note: "Loam authenticates with LoamKeyFile"},
			{name: "CredType", use: ignored, note: "Loam authenticates with LoamKeyFile"},
			{name: "AccountingStorageType", use: ignored, note: "Loam keeps accounting in its own state database"},
			{name: "JobCompType", use: ignored, note: "Loam keeps accounting in its own state database"},
			{name: "ProctrackType", use: ignored, note: "Loam tracks jobs in cgroups"},
			{name: "TaskPlugin", use: ignored, note: "Loam confines jobs in cgroups"},
		},
		keys(ignored,
			"AccountingStorageEnforce", "AccountingStorageExternalHost", "AccountingStorageHost",
			"AccountingStorageBackupHost", "AccountingStorageLoc",
			"AccountingStorageParameters", "AccountingStoragePass",
			"AccountingStoragePort", "AccountingStorageUser", "AccountingStoreFlags",
			"AccountingStoreJobComment", "AcctGatherEnergyType", "AcctGatherNodeFreq",
			"AcctGatherProfileType", "AcctGatherInterconnectType",
			"AcctGatherInfinibandType", "AcctGatherFilesystemType",
			"AllowSpecResourcesUsage", "AuthAltTypes", "AuthAltParameters",
			"BatchStartTimeout", "BcastExclude", "BcastParameters",
			"BurstBufferParameters", "BurstBufferType", "CertgenParameters",
			"CertgenType", "CertmgrParameters", "CertmgrType", "CoreSpecPlugin",
			"CliFilterParameters", "CliFilterPlugins", "CommunicationParameters",
			"CompleteWait", "CpuFreqDef", "CpuFreqGovernors", "CryptoType",
			"DataParserParameters", "DebugFlags", "EioTimeout",
			"EpilogMsgTime", "EpilogTimeout", "ExtSensorsType", "ExtSensorsFreq",
			"FairShareDampeningFactor", "FastSchedule", "FederationParameters",
			"FirstJobId", "GetEnvTimeout", "GroupUpdateForce", "GroupUpdateTime",
			"GpuFreqDef", "HashPlugin", "InteractiveStepOptions", "JobAcctGatherType",
			"JobAcctGatherFrequency", "JobAcctGatherParams", "JobCompHost",
			"JobCompLoc", "JobCompParams", "JobCompPass", "JobCompPort",
			"JobContainerType", "JobCompUser", "JobCredentialPrivateKey",
			"JobCredentialPublicCertificate", "JobFileAppend", "JobSubmitPlugins",
			"KeepAliveTime", "LaunchParameters", "LaunchType",
			"LogTimeFormat", "MailDomain", "MaxBatchRequeue",
			"MaxDBDMsgs", "MaxNodeCount", "MaxJobId", "MCSParameters", "MCSPlugin",
			"MetricsType", "MpiDefault", "MpiParams", "NamespaceType",
			"NodeFeaturesPlugins", "PluginDir", "PlugStackConfig",
			"PowerParameters", "PowerPlugin", "PrEpParameters", "PrEpPlugins",
			"PriorityCalcPeriod", "PriorityParameters", "PriorityUsageResetPeriod",
			"PrioritySiteFactorParameters",
			"PrioritySiteFactorPlugin", "PriorityWeightAssoc",
			"PrologTimeout", "PropagatePrioProcess", "RebootProgram",
			"ResumeFailProgram", "ResumeProgram",
			"ResumeRate", "ResumeTimeout", "RoutePlugin", "SallocDefaultCommand", "SbcastParameters",
			"SchedulerTimeSlice", "ScronParameters", "SlurmdUser", "SlurmctldAddr",
			"SlurmctldPidFile",
			"SlurmctldPlugstack", "SlurmctldPrimaryOffProg",
			"SlurmctldPrimaryOnProg", "SlurmctldSyslogDebug", "SlurmctldTimeout",
			"SlurmdParameters", "SlurmdPidFile", "SlurmdSyslogDebug",
			"SlurmSchedLogFile", "SlurmSchedLogLevel",
			"SrunPortRange", "SuspendExcNodes", "SuspendExcParts",
			"SuspendExcStates", "SuspendProgram", "SuspendRate", "SuspendTime",
			"SuspendTimeout", "SwitchParameters", "SwitchType", "TaskPluginParam",
			"TCPTimeout", "TLSParameters", "TLSType", "TopologyParam",
			"TrackWCKey", "TreeWidth",
			"UrlParserType",
			"UsePAM", "VSizeFactor", "WaitTime", "X11Parameters"),
	)
})

// decodeCluster applies the cluster keys to c.
func decodeCluster(x *dec, c *Config) {
	x.str("ClusterName", &c.ClusterName)
	x.port("SlurmctldPort", &c.SlurmctldPort)
	x.port("SlurmdPort", &c.SlurmdPort)
	x.str("StateSaveLocation", &c.StateSaveLocation)
	x.str("SlurmdSpoolDir", &c.SlurmdSpoolDir)
	x.str("TmpFS", &c.TmpFS)
	x.str("SlurmUser", &c.SlurmUser)
	x.str("MailProg", &c.MailProg)
	x.logLevel("SlurmctldDebug", &c.SlurmctldDebug)
	x.logLevel("SlurmdDebug", &c.SlurmdDebug)
	x.str("SlurmctldLogFile", &c.SlurmctldLogFile)
	x.str("SlurmdLogFile", &c.SlurmdLogFile)
	x.list("GresTypes", &c.GresTypes)
	x.acctTRES("AccountingStorageTRES", &c.AccountingStorageTRES)
	x.list("ReconfigFlags", &c.ReconfigFlags) // KeepPartInfo, KeepPartState: the controller's reconfigure
	x.list("DependencyParameters", &c.DependencyParameters)
	for _, o := range c.DependencyParameters {
		c.KillInvalidDepend = c.KillInvalidDepend || strings.EqualFold(o, "kill_invalid_depend")
	}
	x.seconds("KillWait", &c.KillWait)
	x.seconds("MinJobAge", &c.MinJobAge)
	x.seconds("SlurmdTimeout", &c.SlurmdTimeout)
	x.seconds("InactiveLimit", &c.InactiveLimit)
	x.seconds("MessageTimeout", &c.MessageTimeout)
	x.count("MaxJobCount", &c.MaxJobCount, math.MaxUint32)
	x.count("MaxArraySize", &c.MaxArraySize, 4000001)
	x.str("SchedulerType", &c.SchedulerType)
	x.schedulerParameters(&c.SchedulerParameters)
	x.str("SelectType", &c.SelectType)
	if x.str("SelectTypeParameters", &c.SelectTypeParameters); c.SelectTypeParameters != "" {
		c.SelectTypeParameters = strings.ToUpper(c.SelectTypeParameters)
	}
	x.str("TopologyPlugin", &c.TopologyPlugin)
	decodePriority(x, c)
	x.str("PreemptType", &c.PreemptType)
	x.preemptMode("PreemptMode", &c.PreemptMode)
	x.exemptTime("PreemptExemptTime", &c.PreemptExemptTime)
	x.memory("DefMemPerCPU", &c.DefMemPerCPU)
	x.memory("DefMemPerGPU", &c.DefMemPerGPU)
	x.memory("MaxMemPerNode", &c.MaxMemPerNode)
	decodeMemLimits(x, c)    // memlimits.go
	decodeBillingFlags(x, c) // billing.go
	var requeue int64 = 1
	x.count("JobRequeue", &requeue, 1)
	c.JobRequeue = requeue == 1
	x.int("ReturnToService", &c.ReturnToService, 2)
	x.resvOverRun("ResvOverRun", &c.ResvOverRun) // resvoverrun.go
	decodeLimits(x, c)                           // limits.go
	decodeCPUPerGPU(x, c)                        // partkeys.go
	decodeStepLimits(x, c)                       // steplimits.go
	decodeLicenses(x, c)                         // licenses.go
	decodePrivateData(x, c)                      // privatedata.go
	decodeRLimits(x, c)                          // rlimits.go
	x.str("LoamKeyFile", &c.LoamKeyFile)
	x.str("LoamCtldSocket", &c.LoamCtldSocket)
	x.str("LoamNodedSocket", &c.LoamNodedSocket)
	x.str("LoamWebhookURL", &c.LoamWebhookURL)
	x.timeLimit("LoamAuditRetention", &c.LoamAuditRetention)
	x.legacyControllers(c)
	decodeScripts(x, c)     // scripts.go
	decodeNodeProlog(x, c)  // nodeprolog.go
	decodeCtldScripts(x, c) // ctldscripts.go
	decodeUnkillable(x, c)  // unkillable.go
}

func decodePriority(x *dec, c *Config) {
	x.str("PriorityType", &c.PriorityType)
	x.count("PriorityWeightAge", &c.PriorityWeightAge, math.MaxUint32)
	x.count("PriorityWeightFairshare", &c.PriorityWeightFairshare, math.MaxUint32)
	x.count("PriorityWeightJobSize", &c.PriorityWeightJobSize, math.MaxUint32)
	x.count("PriorityWeightPartition", &c.PriorityWeightPartition, math.MaxUint32)
	x.count("PriorityWeightQOS", &c.PriorityWeightQOS, math.MaxUint32)
	x.tresWeights("PriorityWeightTRES", &c.PriorityWeightTRES)
	x.timeLimit("PriorityDecayHalfLife", &c.PriorityDecayHalfLife)
	x.timeLimit("PriorityMaxAge", &c.PriorityMaxAge)
	x.boolean("PriorityFavorSmall", &c.PriorityFavorSmall)
	x.number("PriorityWeightCompensation", &c.PriorityWeightCompensation)
}

// int is count into an int.
func (x *dec) int(name string, dst *int, max int64) {
	n := int64(*dst)
	x.count(name, &n, max)
	*dst = int(n)
}

func (x *dec) port(name string, dst *int) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	// Slurm accepts a range of controller ports ("6817-6818"); Loam listens
	// on the first.
	v := f.Value
	if lo, _, ok := strings.Cut(v, "-"); ok && name == "SlurmctldPort" {
		x.d.warnf(f.Pos, x.rec, f.Key, "port range %q: Loam listens on the first port only", v)
		v = lo
	}
	n, err := parseCount(v, math.MaxUint16)
	if err != nil || n == 0 {
		x.bad(f, "%q is not a port number", f.Value)
		return
	}
	*dst = int(n)
}

// logLevel decodes a daemon's log level: a name or a number 0-9, as
// slurmctld refuses anything else ("Invalid SlurmctldDebug loud").
func (x *dec) logLevel(name string, dst *string) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	l, ok := ParseLogLevel(f.Value)
	if !ok {
		x.bad(f, "%q is not a log level (%s, or 0-9)", f.Value, strings.Join(LogLevels, ", "))
		return
	}
	*dst = l
}

// exemptTime decodes PreemptExemptTime: a time limit, or -1 for none.
func (x *dec) exemptTime(name string, dst *time.Duration) {
	if f, ok := x.get(name); ok && f.Value == "-1" {
		*dst = 0
		return
	}
	x.timeLimit(name, dst)
}

// preemptMode decodes a PreemptMode value: OFF, CANCEL or REQUEUE, with
// Slurm's GANG flag and SUSPEND mode accepted with a warning.
func (x *dec) preemptMode(name string, dst *PreemptMode) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	mode, err := readPreemptMode(f.Value, func(format string, args ...any) {
		x.d.warnf(f.Pos, x.rec, f.Key, format, args...)
	})
	if err != nil {
		x.bad(f, "%v", err)
		return
	}
	*dst = mode
}

// ParsePreemptMode reads a PreemptMode value as slurm.conf does (scontrol
// update PartitionName=... PreemptMode=); ok is false for a value
// slurm.conf refuses.
func ParsePreemptMode(s string) (PreemptMode, bool) {
	mode, err := readPreemptMode(s, func(string, ...any) {})
	return mode, err == nil
}

func readPreemptMode(s string, warnf func(format string, args ...any)) (PreemptMode, error) {
	var mode PreemptMode
	for _, part := range splitList(s) {
		switch strings.ToUpper(part) {
		case "OFF", "CANCEL", "REQUEUE":
			if mode != "" {
				return "", fmt.Errorf("%q names more than one mode", s)
			}
			mode = PreemptMode(strings.ToUpper(part))
		case "SUSPEND":
			warnf("Loam does not suspend jobs: SUSPEND is read as REQUEUE")
			mode = PreemptRequeue
		case "GANG", "WITHIN":
			warnf("%s is not used by Loam, ignored", strings.ToUpper(part))
		default:
			return "", fmt.Errorf("%q is not a preemption mode (OFF, CANCEL, REQUEUE)", part)
		}
	}
	if mode == "" {
		mode = PreemptOff
	}
	return mode, nil
}

// tresWeights decodes PriorityWeightTRES ("CPU=1000,Mem=2000,GRES/gpu=3000").
func (x *dec) tresWeights(name string, dst *map[string]float64) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	out := map[string]float64{}
	for _, item := range splitList(f.Value) {
		k, v, ok := strings.Cut(item, "=")
		w, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil || w < 0 || math.IsInf(w, 0) || math.IsNaN(w) {
			x.bad(f, "%q is not TRES=weight", item)
			return
		}
		out[canonicalTRESName(k)] = w
	}
	*dst = out
}

// legacyControllers turns ControlMachine/ControlAddr and
// BackupController/BackupAddr into controller hosts when no SlurmctldHost
// line is given, as Slurm still does.
func (x *dec) legacyControllers(c *Config) {
	pairs := [][2]string{{"ControlMachine", "ControlAddr"}, {"BackupController", "BackupAddr"}}
	for _, p := range pairs {
		f, ok := x.get(p[0])
		if !ok {
			continue
		}
		if len(c.SlurmctldHosts) > 0 && p[0] == "ControlMachine" {
			x.d.warnf(f.Pos, "", f.Key, "ignored: SlurmctldHost is set")
			return
		}
		x.d.warnf(f.Pos, "", f.Key, "deprecated, use SlurmctldHost")
		h := ControllerHost{Host: f.Value, Addr: f.Value, Pos: f.Pos}
		x.str(p[1], &h.Addr)
		c.SlurmctldHosts = append(c.SlurmctldHosts, h)
	}
}
