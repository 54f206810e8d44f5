package jobopt

import (
	"strconv"
	"strings"
)

// passedAsIs pairs an option with the SLURM_* variable sbatch sets from its value
// as given. Loam does not act on these options, but scripts and the srun
// inside the job read the variables (the peer's sbatch --gpu-bind=closest
// job sees SLURM_GPU_BIND=closest).
var passedAsIs = [][2]string{
	{"acctg-freq", "SLURM_ACCTG_FREQ"},
	{"container", "SLURM_CONTAINER"},
	{"gpu-bind", "SLURM_GPU_BIND"},
	{"gpu-freq", "SLURM_GPU_FREQ"},
	{"gpus-per-socket", "SLURM_GPUS_PER_SOCKET"},
	{"hint", "SLURM_HINT"},
	{"ntasks-per-gpu", "SLURM_NTASKS_PER_GPU"},
}

// passedVariables adds the variables of the options Loam passes over, as
// the peer's sbatch sets them.
func (b *builder) passedVariables(env *envList) {
	for _, p := range passedAsIs {
		if v, ok := b.passed[p[0]]; ok && v.str != "" {
			env.set(p[1], v.str)
		}
	}
	// The layout as the options and --hint left it (layout.go): the
	// peer's --hint=nomultithread job sees SLURM_THREADS_PER_CORE=1,
	// --hint=multithread SLURM_NTASKS_PER_CORE=65535.
	r := &b.req
	for _, c := range []struct {
		name string
		n    int
	}{{"SLURM_NTASKS_PER_CORE", r.NTasksPerCore}, {"SLURM_NTASKS_PER_SOCKET", r.NTasksPerSocket},
		{"SLURM_THREADS_PER_CORE", r.ThreadsPerCore}} {
		if c.n > 0 {
			env.set(c.name, strconv.Itoa(c.n))
		}
	}
	if _, ok := b.passed["overcommit"]; ok {
		env.set("SLURM_OVERCOMMIT", "1")
	}
	if v, ok := b.passed["distribution"]; ok && v.str != "" {
		dist, size, plane := strings.Cut(strings.ToLower(v.str), "=")
		env.set("SLURM_DISTRIBUTION", dist)
		if plane {
			env.set("SLURM_DIST_PLANESIZE", size)
		}
	}
	if v, ok := b.passed["mem-bind"]; ok && v.str != "" {
		verbose, bind := splitMemBind(v.str)
		env.set("SLURM_MEM_BIND", bind)
		env.set("SLURM_MEM_BIND_VERBOSE", verbose)
	}
	if v, ok := b.passed["cpu-freq"]; ok && v.str != "" {
		env.set("SLURM_CPU_FREQ_REQ", cpuFreqName(v.str))
	}
	if v, ok := b.passed["profile"]; ok && v.str != "" {
		env.set("SLURM_PROFILE", profileName(v.str))
	}
}

// splitMemBind separates --mem-bind's "verbose"/"quiet" from the binding:
// the peer's --mem-bind=local gives SLURM_MEM_BIND=local and
// SLURM_MEM_BIND_VERBOSE=quiet.
func splitMemBind(spec string) (verbose, bind string) {
	verbose = "quiet"
	var rest []string
	for _, p := range strings.Split(spec, ",") {
		switch strings.ToLower(p) {
		case "v", "verbose":
			verbose = "verbose"
		case "q", "quiet":
			verbose = "quiet"
		default:
			rest = append(rest, p)
		}
	}
	return verbose, strings.Join(rest, ",")
}

// cpuFreqNames are --cpu-freq's words as Slurm prints them back
// (--cpu-freq=high gives SLURM_CPU_FREQ_REQ=High).
var cpuFreqNames = map[string]string{
	"low": "Low", "medium": "Medium", "high": "High", "highm1": "HighM1",
	"conservative": "Conservative", "ondemand": "OnDemand", "performance": "Performance",
	"powersave": "PowerSave", "userspace": "UserSpace", "schedutil": "SchedUtil",
}

// cpuFreqName rewrites "min-max:governor" with Slurm's spelling of each
// word; numbers (kHz) stay as given.
func cpuFreqName(spec string) string {
	freq, gov, hasGov := strings.Cut(spec, ":")
	parts := strings.Split(freq, "-")
	for i, p := range parts {
		if n, ok := cpuFreqNames[strings.ToLower(p)]; ok {
			parts[i] = n
		}
	}
	out := strings.Join(parts, "-")
	if hasGov {
		if n, ok := cpuFreqNames[strings.ToLower(gov)]; ok {
			gov = n
		}
		out += ":" + gov
	}
	return out
}

// profileOrder is how Slurm lists --profile's types (acct_gather
// profile flags in bit order).
var profileOrder = []string{"Energy", "Lustre", "Network", "Task"}

// profileName is --profile as SLURM_PROFILE shows it: "task" gives
// "Task", "all" "All", "none" "None", a list its types in Slurm's order.
func profileName(spec string) string {
	want := map[string]bool{}
	for _, p := range strings.Split(spec, ",") {
		p = strings.ToLower(strings.TrimSpace(p))
		switch p {
		case "all":
			return "All"
		case "none":
			return "None"
		case "filesystem":
			p = "lustre"
		}
		want[p] = true
	}
	var out []string
	for _, t := range profileOrder {
		if want[strings.ToLower(t)] {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return spec
	}
	return strings.Join(out, ",")
}
