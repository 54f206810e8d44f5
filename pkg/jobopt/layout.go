package jobopt

import (
	"strings"

	"github.com/loamhpc/loam/pkg/job"
)

// The CPU layout options (-B, --sockets-per-node, --cores-per-socket,
// --threads-per-core, --ntasks-per-core, --ntasks-per-socket, --hint) and
// the binding ones (--gpu-bind, --cpu-freq) are recorded in the request
// so that scontrol and squeue show them as Slurm does, and exported as
// SLURM_* variables; Loam neither places nor binds by them, so each still
// warns "Loam ignores --X". Only the task count -B (or -N with a layout)
// implies is acted on, as it is part of the job's size.

// layoutCount returns a setter of one positive count of the layout.
func layoutCount(name string, field func(r *job.Request) *int) func(b *builder, v value) error {
	return func(b *builder, v value) error {
		n, err := b.parseInt(name, v.str, true)
		if err != nil {
			return err
		}
		*field(&b.req) = n
		b.ignored(v)
		return nil
	}
}

var (
	setSocketsPerNode  = layoutCount("--sockets-per-node", func(r *job.Request) *int { return &r.SocketsPerNode })
	setCoresPerSocket  = layoutCount("--cores-per-socket", func(r *job.Request) *int { return &r.CoresPerSocket })
	setThreadsPerCore  = layoutCount("--threads-per-core", func(r *job.Request) *int { return &r.ThreadsPerCore })
	setNTasksPerCore   = layoutCount("--ntasks-per-core", func(r *job.Request) *int { return &r.NTasksPerCore })
	setNTasksPerSocket = layoutCount("--ntasks-per-socket", func(r *job.Request) *int { return &r.NTasksPerSocket })
)

// setExtraNodeInfo reads -B sockets[:cores[:threads]] as Slurm's
// verify_socket_core_thread_count: each field's minimum ("2-4" is 2),
// "*" or an empty field leaving it unset, words after the third not
// looked at. -B sets all three, so "-B 2" unsets the cores given before.
func setExtraNodeInfo(b *builder, v value) error {
	if err := checkExtraNodeInfo(b, v); err != nil {
		return err
	}
	counts := [3]int{}
	for k, part := range strings.SplitN(v.str, ":", 4) {
		if k == len(counts) {
			break
		}
		if lo, _, _ := strings.Cut(part, "-"); lo != "*" && lo != "" {
			n, _ := cStrtol(lo)
			counts[k] = int(n)
		}
	}
	r := &b.req
	r.SocketsPerNode, r.CoresPerSocket, r.ThreadsPerCore = counts[0], counts[1], counts[2]
	b.extraSet = true
	b.ignored(v)
	return nil
}

// setGPUBind (sbatch, salloc) keeps --gpu-bind as the job's TresBind,
// checked as srun checks it.
func setGPUBind(b *builder, v value) error {
	if err := checkGPUBind(v.str); err != nil {
		return b.clientError("Invalid --gpu-bind argument: gpu:%s", v.str)
	}
	// Not ignored: the job's srun steps read it back from SLURM_GPU_BIND
	// (finish_passed.go) and bind each task's GPUs, as in Slurm.
	b.req.TRESBind = "gpu:" + v.str
	return nil
}

// setCPUFreq keeps --cpu-freq; checkCPUFreq (run after it) refuses what
// Slurm refuses.
func setCPUFreq(b *builder, v value) error {
	b.req.CPUFreq = nil
	if f, err := job.ParseCPUFreq(v.str); err == nil {
		b.req.CPUFreq = &f
	}
	b.ignored(v)
	return nil
}

// verifyHint is Slurm's validate_hint_option followed by verify_hint.
// --hint given on the command line (or in the script) with
// --ntasks-per-core, --threads-per-core or -B given there too is dropped;
// given alone there it drops those three (and with -B's reset, the
// sockets and cores of --sockets-per-node and --cores-per-socket) when they
// came from the environment, then sets the counts it implies. A --hint
// from the environment gives way to any of them.
func (b *builder) verifyHint() {
	h, ok := b.passed["hint"]
	if !ok {
		return
	}
	conflict := func(fromCLI bool) bool {
		for _, name := range []string{"ntasks-per-core", "threads-per-core", "extra-node-info"} {
			if v, ok := b.passed[name]; ok && (v.src != fromEnv) == fromCLI {
				return true
			}
		}
		return b.cpuBindConflict(fromCLI)
	}
	r := &b.req
	switch {
	case h.src != fromEnv && conflict(true), h.src == fromEnv && (conflict(true) || conflict(false)):
		delete(b.passed, "hint")
		return
	case h.src != fromEnv:
		r.NTasksPerCore, r.ThreadsPerCore = 0, 0
		r.SocketsPerNode, r.CoresPerSocket, b.extraSet = 0, 0, false
	}
	for _, w := range strings.Split(h.str, ",") {
		switch strings.ToLower(w) {
		case "compute_bound":
			r.SocketsPerNode, r.CoresPerSocket, r.ThreadsPerCore = 0, 0, 1
		case "memory_bound":
			r.CoresPerSocket, r.ThreadsPerCore = 1, 1
		case "multithread":
			r.ThreadsPerCore, r.NTasksPerCore = 0, job.NTasksPerCoreAny
		case "nomultithread":
			r.ThreadsPerCore = 1
		}
	}
}

// cpuBindConflict: srun's --cpu-bind other than verbose alone also
// makes it drop --hint.
func (b *builder) cpuBindConflict(fromCLI bool) bool {
	v, ok := b.passed["cpu-bind"]
	if !ok || (v.src != fromEnv) != fromCLI {
		return false
	}
	if !fromCLI {
		return true
	}
	for _, w := range strings.Split(v.str, ",") {
		if lw := strings.ToLower(w); lw != "v" && lw != "verbose" {
			return true
		}
	}
	return false
}

// layoutTasks is the task count sbatch and salloc derive without -n from
// a fixed node count (-N or -w) or -B: a task a node times each of
// sockets, cores and threads given (-B 2:4:1 is 8 tasks, -N2
// --sockets-per-node=2 is 4). srun multiplies only when all three are
// given.
func (b *builder) layoutTasks(srun bool) {
	r := &b.req
	if !(r.NodesSet || b.extraSet) || (r.MaxNodes != 0 && r.MinNodes != r.MaxNodes) || r.NTasks != 0 {
		return
	}
	counts := []int{r.SocketsPerNode, r.CoresPerSocket, r.ThreadsPerCore}
	n, set := max(r.MinNodes, 1), false
	for _, c := range counts {
		if c > 0 {
			n, set = n*c, true
		} else if srun {
			return
		}
	}
	if set {
		r.NTasks = n
	}
}
