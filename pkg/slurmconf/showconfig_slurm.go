package slurmconf

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/slurmtime"
)

// Values printed as the peer's Slurm 22.05 build prints them: they come
// from how Slurm was built, not from slurm.conf.
const (
	// SlurmVersion is the Slurm release Loam's commands and show config
	// claim compatibility with.
	SlurmVersion      = "22.05.8"
	slurmPluginDir    = "/usr/lib/x86_64-linux-gnu/slurm-wlm"
	defaultAcctTRES   = "cpu,mem,energy,node,billing,fs/disk,vmem,pages"
	defaultJobCompLoc = "/var/log/slurm_jobcomp.log"
)

// shower builds scontrol show config's key list from one configuration.
type shower struct {
	c  *Config
	rt ShowContext
	kv []KeyValue
}

func (s *shower) add(key, value string) { s.kv = append(s.kv, KeyValue{key, value}) }

// raw returns a key as written in slurm.conf.
func (s *shower) raw(name string) (string, bool) {
	v, ok := s.c.Written[strings.ToLower(name)]
	return v, ok
}

// str adds a key printed as written, or def ("(null)" for none).
func (s *shower) str(name, def string) {
	if v, ok := s.raw(name); ok {
		def = v
	}
	s.add(name, def)
}

// strs adds several keys whose default is "(null)".
func (s *shower) strs(names ...string) {
	for _, n := range names {
		s.str(n, "(null)")
	}
}

// unit adds a count followed by unit ("30 sec", "0 percent"); a value that
// is not a count shows the default, as Slurm refuses to start with it.
func (s *shower) unit(name string, def int64, unit string) {
	if v, ok := s.raw(name); ok {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			def = n
		}
	}
	v := strconv.FormatInt(def, 10)
	if unit != "" {
		v += " " + unit
	}
	s.add(name, v)
}

// yes adds a boolean printed Yes or No.
func (s *shower) yes(name string, def bool) {
	if v, ok := s.raw(name); ok {
		if b, err := parseBool(v); err == nil {
			def = b
		}
	}
	s.add(name, yesNo(def))
}

// upper adds a key Slurm prints upper-cased.
func (s *shower) upper(name, def string) {
	if v, ok := s.raw(name); ok {
		def = strings.ToUpper(v)
	}
	s.add(name, def)
}

// user adds a user name with its uid: "root(0)".
func (s *shower) user(name, user string) {
	if s.rt.UID != nil {
		if uid, ok := s.rt.UID(user); ok {
			user = fmt.Sprintf("%s(%d)", user, uid)
		}
	}
	s.add(name, user)
}

// LogLevels are Slurm's log level names in the order of their numbers
// 0-9 (SlurmctldDebug, scontrol setdebug).
var LogLevels = []string{"quiet", "fatal", "error", "info", "verbose", "debug", "debug2", "debug3", "debug4", "debug5"}

// ParseLogLevel reads a log level as setdebug and slurm.conf take it: a
// name in any case or a number 0-9; it returns the name.
func ParseLogLevel(s string) (string, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		if n < 0 || n >= len(LogLevels) {
			return "", false
		}
		return LogLevels[n], true
	}
	for _, l := range LogLevels {
		if strings.EqualFold(l, s) {
			return l, true
		}
	}
	return "", false
}

// debug adds a log level, printed by name even when written as a number
// (a word Slurm would refuse is printed as written, in lower case).
func (s *shower) debug(name, def string) {
	if v, ok := s.raw(name); ok {
		def = strings.ToLower(v)
		if l, ok := ParseLogLevel(v); ok {
			def = l
		}
	}
	s.add(name, def)
}

// slurmKeys adds every key of Slurm 22.05's scontrol show config, in its
// order (src/api/config_info.c), with spellings and formats as printed.
func (s *shower) slurmKeys() {
	c := s.c
	s.strs("AccountingStorageBackupHost")
	s.add("AccountingStorageEnforce", showAcctEnforce(s.or("AccountingStorageEnforce", ""))) // showconfig_canon.go
	s.str("AccountingStorageHost", "localhost")
	s.strs("AccountingStorageExternalHost", "AccountingStorageParameters")
	s.accounting() // AccountingStoragePort through AccountingStoreFlags
	s.str("AcctGatherEnergyType", "acct_gather_energy/none")
	s.str("AcctGatherFilesystemType", "acct_gather_filesystem/none")
	s.str("AcctGatherInterconnectType", "acct_gather_interconnect/none")
	s.unit("AcctGatherNodeFreq", 0, "sec")
	s.str("AcctGatherProfileType", "acct_gather_profile/none")
	s.yes("AllowSpecResourcesUsage", false)
	s.strs("AuthAltTypes", "AuthAltParameters", "AuthInfo")
	s.str("AuthType", "auth/munge")
	s.unit("BatchStartTimeout", 10, "sec")
	s.str("BcastExclude", "/lib,/usr/lib,/lib64,/usr/lib64")
	s.strs("BcastParameters")
	s.add("BOOT_TIME", s.rt.bootTime())
	s.strs("BurstBufferType", "CliFilterPlugins")
	s.add("ClusterName", c.ClusterName)
	s.strs("CommunicationParameters")
	s.unit("CompleteWait", 0, "sec")
	s.str("CoreSpecPlugin", "core_spec/none")
	s.str("CpuFreqDef", "Unknown")
	s.str("CpuFreqGovernors", "OnDemand,Performance,UserSpace")
	s.str("CredType", "cred/munge")
	s.showFlags() // showconfig_debug.go
	s.defMem()
	s.str("DependencyParameters", "(null)") // as written, as Slurm prints it
	s.yes("DisableRootJobs", false)
	s.unit("EioTimeout", 60, "")
	s.add("EnforcePartLimits", enforceText(c.EnforcePartLimits)) // limits.go: YES prints as ANY
	s.strs("Epilog")
	s.unit("EpilogMsgTime", 2000, "usec")
	s.strs("EpilogSlurmctld")
	s.str("ExtSensorsType", "ext_sensors/none")
	s.unit("ExtSensorsFreq", 0, "sec")
	if c.PriorityType != "priority/basic" {
		s.unit("FairShareDampeningFactor", 1, "")
	}
	s.strs("FederationParameters")
	s.unit("FirstJobId", 1, "")
	s.unit("GetEnvTimeout", 2, "sec")
	s.str("GresTypes", "(null)")
	s.str("GpuFreqDef", "high,memory=high")
	s.unit("GroupUpdateForce", 1, "")
	s.unit("GroupUpdateTime", 600, "sec")
	s.add("HASH_VAL", "Match")
	s.unit("HealthCheckInterval", 0, "sec")
	if v, ok := s.raw("HealthCheckNodeState"); ok {
		s.add("HealthCheckNodeState", HealthCheckNodeStateString(v)) // scripts.go
	} else {
		s.add("HealthCheckNodeState", "ANY")
	}
	s.strs("HealthCheckProgram")
	s.add("InactiveLimit", secs(c.InactiveLimit))
	s.str("InteractiveStepOptions", "--interactive --preserve-env --pty $SHELL")
	s.add("JobAcctGatherFrequency", s.c.AcctGatherFrequency())
	s.str("JobAcctGatherType", "jobacct_gather/none")
	s.strs("JobAcctGatherParams")
	s.str("JobCompHost", "localhost")
	s.str("JobCompLoc", s.jobCompLoc())
	s.unit("JobCompPort", 0, "")
	s.str("JobCompType", "jobcomp/none")
	s.str("JobCompUser", "root")
	s.str("JobContainerType", "job_container/none")
	s.strs("JobCredentialPrivateKey", "JobCredentialPublicCertificate")
	s.add("JobDefaults", jobDefaultsText(c)) // partkeys.go
	s.unit("JobFileAppend", 0, "")
	s.add("JobRequeue", boolDigit(c.JobRequeue))
	s.strs("JobSubmitPlugins")
	s.unit("KillOnBadExit", 0, "")
	s.add("KillWait", secs(c.KillWait))
	s.strs("LaunchParameters")
	s.str("LaunchType", "launch/slurm")
	s.strs("Licenses")
	s.add("LogTimeFormat", strings.ToLower(s.or("LogTimeFormat", "iso8601_ms")))
	s.strs("MailDomain")
	s.add("MailProg", c.MailProg)
	s.add("MaxArraySize", strconv.FormatInt(c.MaxArraySize, 10))
	s.unit("MaxDBDMsgs", 0, "")
	s.add("MaxJobCount", strconv.FormatInt(c.MaxJobCount, 10))
	s.unit("MaxJobId", 67043328, "")
	s.maxMem()
	s.maxNodeCount()
	s.add("MaxStepCount", strconv.FormatInt(c.MaxStepCount, 10)) // 0: the default (steplimits.go)
	s.add("MaxTasksPerNode", strconv.FormatInt(c.MaxTasksPerNode, 10))
	s.str("MCSPlugin", "mcs/none")
	s.strs("MCSParameters")
	s.add("MessageTimeout", secs(c.MessageTimeout))
	s.add("MinJobAge", secs(c.MinJobAge))
	s.str("MpiDefault", "none")
	s.strs("MpiParams")
	s.add("MULTIPLE_SLURMD", "Yes")
	s.add("NEXT_JOB_ID", strconv.FormatUint(uint64(s.rt.NextJobID), 10))
	s.strs("NodeFeaturesPlugins")
	s.overTimeLimit()
	s.str("PluginDir", slurmPluginDir)
	s.strs("PlugStackConfig", "PowerParameters")
	s.str("PowerPlugin", "")
	s.add("PreemptMode", string(c.PreemptMode))
	s.add("PreemptType", c.PreemptType)
	s.add("PreemptExemptTime", slurmtime.FormatDuration(c.PreemptExemptTime))
	s.strs("PrEpParameters")
	s.str("PrEpPlugins", "prep/script")
	s.strs("PriorityParameters", "PrioritySiteFactorParameters", "PrioritySiteFactorPlugin")
	s.priority()
	s.add("PrivateData", showPrivateData(s.or("PrivateData", "")))
	s.str("ProctrackType", "proctrack/cgroup")
	s.strs("Prolog")
	s.unit("PrologEpilogTimeout", 65534, "")
	s.strs("PrologSlurmctld")
	s.add("PrologFlags", c.NodeProlog.Flags.String()) // as Slurm prints them: "Alloc,Contain"
	s.unit("PropagatePrioProcess", 0, "")
	s.propagateLimits() // rlimits.go
	s.strs("PropagateResourceLimitsExcept", "RebootProgram")
	s.add("ReconfigFlags", reconfigFlags(c.ReconfigFlags))
	s.strs("RequeueExit", "RequeueExitHold", "ResumeFailProgram", "ResumeProgram")
	s.unit("ResumeRate", 300, "nodes/min")
	s.unit("ResumeTimeout", 60, "sec")
	s.strs("ResvEpilog")
	s.add("ResvOverRun", resvOverRunText(c.ResvOverRun))
	s.strs("ResvProlog")
	s.add("ReturnToService", strconv.Itoa(c.ReturnToService))
	s.str("RoutePlugin", "route/default")
	s.add("SchedulerParameters", orNull(c.SchedulerParameters.Raw))
	s.unit("SchedulerTimeSlice", 30, "sec")
	s.add("SchedulerType", c.SchedulerType)
	s.strs("ScronParameters")
	s.add("SelectType", c.SelectType)
	if c.SelectTypeParameters != "" {
		s.add("SelectTypeParameters", c.SelectTypeParameters)
	}
	s.slurmctldKeys()
	s.slurmdKeys()
	s.add("SLURM_CONF", orNull(s.rt.ConfPath))
	s.add("SLURM_VERSION", SlurmVersion)
	s.strs("SrunEpilog")
	s.str("SrunPortRange", "0-0")
	s.strs("SrunProlog")
	s.add("StateSaveLocation", c.StateSaveLocation)
	s.strs("SuspendExcNodes", "SuspendExcParts", "SuspendProgram")
	s.unit("SuspendRate", 60, "nodes/min")
	s.suspendTime()
	s.unit("SuspendTimeout", 30, "sec")
	s.strs("SwitchParameters")
	s.str("SwitchType", "switch/none")
	s.strs("TaskEpilog")
	s.str("TaskPlugin", "task/none")
	s.add("TaskPluginParam", showTaskPluginParam(s.or("TaskPluginParam", "")))
	s.strs("TaskProlog")
	s.unit("TCPTimeout", 2, "sec")
	s.str("TmpFS", "/tmp")
	s.strs("TopologyParam")
	s.add("TopologyPlugin", c.TopologyPlugin)
	s.yes("TrackWCKey", false)
	s.unit("TreeWidth", 50, "")
	s.yes("UsePam", false)
	s.strs("UnkillableStepProgram")
	s.unit("UnkillableStepTimeout", 60, "sec")
	s.unit("VSizeFactor", 0, "percent")
	s.unit("WaitTime", 0, "sec")
	s.strs("X11Parameters")
}

// or returns the key as written, or def.
func (s *shower) or(name, def string) string {
	if v, ok := s.raw(name); ok {
		return v
	}
	return def
}
