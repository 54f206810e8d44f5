package jobopt

import "slices"

// slurmOptionOrder is the order of the long options of sbatch, salloc
// and srun in Slurm 22.05's common option table, as getopt lists the
// possibilities of an ambiguous prefix ("--n" and so on) on the peer.
var slurmOptionOrder = []string{
	"accel-bind", "account", "acctg-freq", "array", "batch", "bcast", "bcast-exclude",
	"begin", "bell", "bb", "bbf", "cluster-constraint", "chdir", "cluster", "clusters",
	"comment", "compress", "container", "context", "contiguous", "constraint", "core-spec",
	"cores-per-socket", "cpu-bind", "cpu_bind", "cpu-freq", "cpus-per-gpu", "cpus-per-task",
	"deadline", "debugger-test", "delay-boot", "dependency", "disable-status", "distribution",
	"epilog", "error", "exact", "exclude", "exclusive", "export", "export-file",
	"extra-node-info", "get-user-env", "gid", "gpu-bind", "gpu-freq", "gpus", "gpus-per-node",
	"gpus-per-socket", "gpus-per-task", "gres", "gres-flags", "help", "het-group", "hint",
	"hold", "ignore-pbs", "immediate", "input", "interactive", "jobid", "job-name", "label",
	"licenses", "mail-type", "mail-user", "mcs-label", "mem", "mem-bind", "mem-per-cpu",
	"mem-per-gpu", "mincpus", "mpi", "msg-timeout", "multi-prog", "network", "nice",
	"no-bell", "no-allocate", "no-kill", "no-requeue", "no-shell", "nodefile", "nodelist",
	"nodes", "ntasks", "ntasks-per-core", "ntasks-per-gpu", "ntasks-per-node",
	"ntasks-per-socket", "ntasks-per-tres", "open-mode", "output", "overcommit", "overlap",
	"oversubscribe", "parsable", "pack-group", "partition", "power", "prefer", "preserve-env",
	"priority", "profile", "prolog", "propagate", "pty", "qos", "quiet", "quit-on-interrupt",
	"reboot", "requeue", "relative", "reservation", "resv-ports", "send-libs", "signal",
	"slurmd-debug", "sockets-per-node", "spread-job", "switches", "threads", "task-epilog",
	"task-prolog", "tasks-per-node", "test-only", "thread-spec", "threads-per-core", "time",
	"time-min", "tmp", "uid", "unbuffered", "use-min-nodes", "usage", "verbose", "version",
	"wait", "wait-all-nodes", "wckey", "wrap", "whole",
}

var slurmOptionRank = func() map[string]int {
	m := make(map[string]int, len(slurmOptionOrder))
	for i, name := range slurmOptionOrder {
		m[name] = i
	}
	return m
}()

// inSlurmOrder puts the options Slurm has in Slurm's order; the others
// (Loam's own) keep their places. Tables built by dropping and adding
// options (salloc's) or written by hand (srun's) come out in the order
// getopt's messages need.
func inSlurmOrder(opts []Option) []Option {
	var at []int
	var known []Option
	for i, o := range opts {
		if _, ok := slurmOptionRank[o.Long]; ok {
			at = append(at, i)
			known = append(known, o)
		}
	}
	slices.SortStableFunc(known, func(a, b Option) int { return slurmOptionRank[a.Long] - slurmOptionRank[b.Long] })
	out := slices.Clone(opts)
	for k, i := range at {
		out[i] = known[k]
	}
	return out
}

// srunMoreOptions are srun options of Slurm 22.05 the hand-written table
// lacks; Loam accepts and ignores them, and they make getopt's list of an
// ambiguous prefix the peer's.
func srunMoreOptions(st *srunState) []Option {
	return []Option{
		{Long: "accel-bind", Arg: RequiredArg},
		{Long: "bcast-exclude", Arg: RequiredArg},
		{Long: "cluster", Arg: RequiredArg, Key: "clusters", set: setClusters},
		{Long: "context", Arg: RequiredArg},
		{Long: "cpu_bind", Arg: RequiredArg, Key: "cpu-bind", set: st.setCPUBind},
		{Long: "interactive", Arg: NoArg},
		{Long: "ntasks-per-tres", Arg: RequiredArg},
		{Long: "pack-group", Arg: RequiredArg},
		{Long: "prefer", Arg: RequiredArg, set: setPrefer},
		{Long: "send-libs", Arg: OptionalArg},
		{Long: "whole", Arg: NoArg, set: st.setWhole},
	}
}

// srunTable is srun's table: the hand-written options and the ones above,
// in Slurm's order.
func srunTable(st *srunState) *Table {
	var opts []Option
	have := map[string]bool{}
	for _, o := range srunOptions(st) {
		have[o.Long] = true
		opts = append(opts, o)
	}
	for _, o := range srunMoreOptions(st) {
		if !have[o.Long] {
			opts = append(opts, o)
		}
	}
	return NewTable(inSlurmOrder(opts))
}
