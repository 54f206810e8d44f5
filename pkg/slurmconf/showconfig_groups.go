package slurmconf

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/slurmtime"
)

// ShowContext is what scontrol show config prints that is not in the
// files: the controller's state and the host it runs on. Zero fields print
// as Slurm prints unknown values.
type ShowContext struct {
	// BootTime is when the controller started (BOOT_TIME).
	BootTime time.Time
	// NextJobID is the id the next submission gets (NEXT_JOB_ID).
	NextJobID uint32
	// ConfPath is the slurm.conf the controller read (SLURM_CONF).
	ConfPath string
	// Hostname stands for a SlurmctldHost written "localhost", as
	// slurmctld resolves it to the host's short name.
	Hostname string
	// UID looks up a user's uid, printed after SlurmUser and SlurmdUser
	// ("root(0)"); nil or not found: the name alone.
	UID func(user string) (int, bool)
	// Debug is setdebug's and setdebugflags's run-time state, printed
	// instead of the file's SlurmctldDebug and DebugFlags; nil: the
	// file's.
	Debug *RuntimeDebug
}

func (rt ShowContext) bootTime() string {
	if rt.BootTime.IsZero() {
		return "Unknown"
	}
	return rt.BootTime.Format("2006-01-02T15:04:05")
}

// accounting prints AccountingStoragePort through AccountingStoreFlags,
// whose defaults depend on AccountingStorageType.
func (s *shower) accounting() {
	typ := s.or("AccountingStorageType", "accounting_storage/none")
	port, user := int64(0), "root"
	switch typ {
	case "accounting_storage/slurmdbd":
		port, user = 6819, "N/A" // slurmdbd holds the user
	case "accounting_storage/mysql":
		port = 3306
	}
	s.unit("AccountingStoragePort", port, "")
	s.add("AccountingStorageTRES", s.acctTRES())
	s.add("AccountingStorageType", typ)
	if typ != "accounting_storage/slurmdbd" {
		user = s.or("AccountingStorageUser", user)
	}
	s.add("AccountingStorageUser", user)
	var flags []string
	v := strings.ToLower(s.or("AccountingStoreFlags", ""))
	for _, f := range []string{"job_comment", "job_env", "job_script"} {
		if strings.Contains(v, f) {
			flags = append(flags, f)
		}
	}
	s.add("AccountingStoreFlags", orNull(strings.Join(flags, ",")))
}

func (s *shower) jobCompLoc() string {
	if s.or("JobCompType", "") == "jobcomp/mysql" {
		return "slurm_jobcomp_db"
	}
	return defaultJobCompLoc
}

// reconfigFlags prints ReconfigFlags with Slurm's spelling.
func reconfigFlags(flags []string) string {
	var out []string
	for _, f := range flags {
		for _, name := range []string{"KeepPartInfo", "KeepPartState", "KeepPowerSaveSettings"} {
			if strings.EqualFold(f, name) {
				out = append(out, name)
			}
		}
	}
	return orNull(strings.Join(out, ","))
}

// acctTRES is AccountingStorageTRES: Slurm always tracks its default TRES
// and prints the ones written after them in its order (by type, then
// name), as slurmctld rebuilds the list from its TRES table.
func (s *shower) acctTRES() string {
	return strings.Join(append(slices.Clone(defaultTRES), s.c.AccountingStorageTRES...), ",")
}

// defMem prints DefMemPerCPU when set, else DefMemPerNode or UNLIMITED.
func (s *shower) defMem() {
	if s.c.DefMemPerCPU > 0 {
		s.add("DefMemPerCPU", strconv.FormatInt(s.c.DefMemPerCPU, 10))
		return
	}
	if s.c.DefMemPerNode > 0 && s.c.DefMemPerNode != Unlimited {
		s.add("DefMemPerNode", strconv.FormatInt(s.c.DefMemPerNode, 10))
		return
	}
	s.add("DefMemPerNode", "UNLIMITED")
}

// maxMem prints MaxMemPerCPU when set, else MaxMemPerNode (UNLIMITED
// when unset).
func (s *shower) maxMem() {
	if s.c.MaxMemPerCPU > 0 {
		s.add("MaxMemPerCPU", strconv.FormatInt(s.c.MaxMemPerCPU, 10))
		return
	}
	if s.c.MaxMemPerNode != Unlimited {
		s.add("MaxMemPerNode", memOrUnlimited(s.c.MaxMemPerNode))
		return
	}
	s.add("MaxMemPerNode", "UNLIMITED")
}

// maxNodeCount is MaxNodeCount, never below the nodes configured.
func (s *shower) maxNodeCount() {
	n := int64(len(s.c.Nodes))
	if v, ok := s.raw("MaxNodeCount"); ok {
		if m, err := strconv.ParseInt(v, 10, 64); err == nil && m > n {
			n = m
		}
	}
	s.add("MaxNodeCount", strconv.FormatInt(n, 10))
}

func (s *shower) overTimeLimit() {
	v, ok := s.raw("OverTimeLimit")
	switch {
	case !ok:
		v = "0"
	case isUnlimited(v):
		s.add("OverTimeLimit", "UNLIMITED")
		return
	}
	if _, err := strconv.Atoi(v); err != nil {
		v = "0"
	}
	s.add("OverTimeLimit", v+" min")
}

// priority prints the priority keys. With priority/basic Slurm prints the
// plugin's name alone.
func (s *shower) priority() {
	c := s.c
	if c.PriorityType == "priority/basic" {
		s.add("PriorityType", c.PriorityType)
		return
	}
	s.add("PriorityDecayHalfLife", slurmtime.FormatDuration(c.PriorityDecayHalfLife))
	calc := 5 * time.Minute
	if v, ok := s.raw("PriorityCalcPeriod"); ok {
		if d, err := slurmtime.ParseDuration(v); err == nil {
			calc = d
		}
	}
	s.add("PriorityCalcPeriod", slurmtime.FormatDuration(calc))
	s.add("PriorityFavorSmall", yesNo(c.PriorityFavorSmall))
	s.upper("PriorityFlags", "")
	s.add("PriorityMaxAge", slurmtime.FormatDuration(c.PriorityMaxAge))
	s.upper("PriorityUsageResetPeriod", "NONE")
	s.add("PriorityType", c.PriorityType)
	s.add("PriorityWeightAge", strconv.FormatInt(c.PriorityWeightAge, 10))
	s.unit("PriorityWeightAssoc", 0, "")
	s.add("PriorityWeightFairShare", strconv.FormatInt(c.PriorityWeightFairshare, 10))
	s.add("PriorityWeightJobSize", strconv.FormatInt(c.PriorityWeightJobSize, 10))
	s.add("PriorityWeightPartition", strconv.FormatInt(c.PriorityWeightPartition, 10))
	s.add("PriorityWeightQOS", strconv.FormatInt(c.PriorityWeightQOS, 10))
	s.str("PriorityWeightTRES", "(null)") // as written, as Slurm prints it
}

// slurmctldKeys prints SlurmUser through SlurmctldParameters.
func (s *shower) slurmctldKeys() {
	c := s.c
	s.user("SlurmUser", c.SlurmUser)
	s.strs("SlurmctldAddr")
	s.showLevel() // showconfig_debug.go
	for i, h := range c.SlurmctldHosts {
		host := h.Host
		if host == "localhost" && s.rt.Hostname != "" {
			host = s.rt.Hostname
		}
		v := host
		if h.Addr != host {
			v += "(" + h.Addr + ")"
		}
		s.add("SlurmctldHost["+strconv.Itoa(i)+"]", v)
	}
	s.strs("SlurmctldLogFile")
	s.add("SlurmctldPort", strconv.Itoa(c.SlurmctldPort))
	s.strs("SlurmctldSyslogDebug", "SlurmctldPrimaryOffProg", "SlurmctldPrimaryOnProg")
	s.unit("SlurmctldTimeout", 120, "sec")
	s.strs("SlurmctldParameters")
}

// slurmdKeys prints SlurmdDebug through SlurmctldPlugstack.
func (s *shower) slurmdKeys() {
	c := s.c
	s.debug("SlurmdDebug", "info")
	s.strs("SlurmdLogFile", "SlurmdParameters")
	s.str("SlurmdPidFile", "/var/run/slurmd.pid")
	s.add("SlurmdPort", strconv.Itoa(c.SlurmdPort))
	s.add("SlurmdSpoolDir", c.SlurmdSpoolDir)
	s.strs("SlurmdSyslogDebug")
	s.add("SlurmdTimeout", secs(c.SlurmdTimeout))
	s.user("SlurmdUser", s.or("SlurmdUser", "root"))
	s.strs("SlurmSchedLogFile")
	s.unit("SlurmSchedLogLevel", 0, "")
	s.str("SlurmctldPidFile", "/var/run/slurmctld.pid")
	s.strs("SlurmctldPlugstack")
}

// suspendTime is INFINITE unless a number of seconds is written.
func (s *shower) suspendTime() {
	v, ok := s.raw("SuspendTime")
	if n, err := strconv.ParseInt(v, 10, 64); ok && err == nil && n >= 0 {
		s.add("SuspendTime", strconv.FormatInt(n, 10)+" sec")
		return
	}
	s.add("SuspendTime", "INFINITE")
}

// written returns the known keys of fields as written, by lower-case
// canonical name; the last of a key given twice wins, as in Slurm.
func (s *schema) written(fields []field) map[string]string {
	out := map[string]string{}
	for _, f := range fields {
		if spec, ok := s.keys()[strings.ToLower(f.Key)]; ok {
			out[strings.ToLower(spec.name)] = f.Value
		}
	}
	return out
}
