package slurmconf

import (
	"slices"
	"strings"
)

// Slurm parses these keys into bit sets and scontrol show config prints
// the set, not what was written: its own spelling, its order, implied
// flags added. Unknown words, which stop slurmctld, are left out.

// DebugFlags are Slurm 22.05's DebugFlags, in the order debug_flags2str
// prints them (show config) and setdebugflags answers with them.
var DebugFlags = []string{"Accrue", "JobAccountGather", "Agent", "Backfill", "BackfillMap", "BurstBuffer",
	"Cgroup", "CpuFrequency", "CPU_Bind", "Data", "DB_Archive", "DB_Assoc", "DB_TRES", "DB_Event", "DB_Job",
	"DB_QOS", "DB_Query", "DB_Reservation", "DB_Resource", "DB_Step", "DB_Usage", "DB_WCKey", "Dependency",
	"Elasticsearch", "Energy", "ExtSensors", "Federation", "FrontEnd", "Gang", "Gres", "Hetjob", "Interconnect",
	"JobContainer", "NodeFeatures", "License", "MPI", "Network", "NetworkRaw", "NO_CONF_HASH", "Power", "Priority",
	"Profile", "Protocol", "Reservation", "Route", "Script", "SelectType", "Steps", "Switch", "TimeCray",
	"TraceJobs", "Triggers", "WorkQueue"}

// debugFlagAliases are the other spellings debug_str2flags takes.
var debugFlagAliases = map[string]string{"jag": "JobAccountGather", "net": "Network", "netraw": "NetworkRaw",
	"powersave": "Power", "trigger": "Triggers", "workq": "WorkQueue"}

// DebugFlagName returns the canonical spelling of a debug flag named in
// any case or by one of Slurm's aliases ("trigger" for Triggers).
func DebugFlagName(flag string) (string, bool) {
	if a, ok := debugFlagAliases[strings.ToLower(flag)]; ok {
		return a, true
	}
	for _, n := range DebugFlags {
		if strings.EqualFold(n, flag) {
			return n, true
		}
	}
	return "", false
}

// showDebugFlags prints DebugFlags as Slurm does: "Backfill,Gres" for
// "gres,backfill"; "(null)" for none.
func showDebugFlags(v string) string {
	set := map[string]bool{}
	for _, w := range splitList(v) {
		if f, ok := DebugFlagName(w); ok {
			set[f] = true
		}
	}
	return orNull(inOrder(DebugFlags, set))
}

// privateDataOrder is the order private_data_string prints PrivateData
// in; each is set by the word written containing its stem ("account"
// for accounts), and "all" sets every one.
var privateDataOrder = []struct{ name, stem string }{{"accounts", "account"}, {"cloud", "cloud"},
	{"events", "event"}, {"jobs", "job"}, {"nodes", "node"}, {"partitions", "partition"},
	{"reservations", "reservation"}, {"usage", "usage"}, {"users", "user"}}

// showPrivateData prints PrivateData as Slurm does: "jobs,users" for
// "users,jobs"; "none" for none.
func showPrivateData(v string) string {
	v = strings.ToLower(v)
	var out []string
	for _, p := range privateDataOrder {
		if strings.Contains(v, p.stem) || strings.Contains(v, "all") {
			out = append(out, p.name)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ",")
}

// enforceOrder is the order accounting_enforce_string prints
// AccountingStorageEnforce in.
var enforceOrder = []string{"associations", "limits", "nojobs", "nosteps", "qos", "safe", "wckeys"}

// enforceImplies is what each word of AccountingStorageEnforce sets:
// limits, qos, safe and wckeys imply associations, safe implies limits,
// nojobs implies nosteps.
var enforceImplies = map[string][]string{"1": {"associations"}, "associations": {"associations"},
	"2": {"associations", "limits"}, "limits": {"associations", "limits"},
	"safe": {"associations", "limits", "safe"}, "wckeys": {"associations", "wckeys"},
	"qos": {"associations", "qos"}, "nojobs": {"nojobs", "nosteps"}, "nosteps": {"nosteps"}}

// showAcctEnforce prints AccountingStorageEnforce as Slurm does:
// "associations,limits" for "limits"; "none" for none. The words are
// applied in order, as "all" replaces what came before it with everything
// but nojobs and nosteps.
func showAcctEnforce(v string) string {
	set := map[string]bool{}
	for _, w := range splitList(strings.ToLower(v)) {
		if w == "all" {
			set = map[string]bool{"associations": true, "limits": true, "qos": true, "safe": true, "wckeys": true}
			continue
		}
		for _, f := range enforceImplies[w] {
			set[f] = true
		}
	}
	if s := inOrder(enforceOrder, set); s != "" {
		return s
	}
	return "none"
}

// taskParamOrder is the order slurm_sprint_cpu_bind_type prints
// TaskPluginParam in (the flags TaskPluginParam can set).
var taskParamOrder = []string{"verbose", "threads", "cores", "sockets", "none",
	"autobind=threads", "autobind=cores", "autobind=sockets"}

// showTaskPluginParam prints TaskPluginParam as Slurm does: "verbose,cores"
// for "Cores,Verbose"; "(null type)" when no flag is set (autobind=none
// and SlurmdOffSpec set none that it prints).
func showTaskPluginParam(v string) string {
	set := map[string]bool{}
	for _, w := range splitList(strings.ToLower(v)) {
		if slices.Contains(taskParamOrder, w) {
			set[w] = true
		}
	}
	if s := inOrder(taskParamOrder, set); s != "" {
		return s
	}
	return "(null type)"
}

// inOrder joins the names in set in order's order.
func inOrder(order []string, set map[string]bool) string {
	var out []string
	for _, n := range order {
		if set[n] {
			out = append(out, n)
		}
	}
	return strings.Join(out, ",")
}
