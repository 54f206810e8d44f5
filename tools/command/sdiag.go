package command

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

var sdiagOpts = []optSpec{
	{long: "all", short: 'a'},
	{long: "help", short: 'h'},
	{long: "reset", short: 'r'},
	{long: "sort-by-id", short: 'i'},
	{long: "cluster", short: 'M', arg: requiredArg},
	{long: "clusters", short: 'M', arg: requiredArg},
	{long: "sort-by-time", short: 't'},
	{long: "sort-by-time2", short: 'T'},
	{long: "usage"},
	{long: "version", short: 'V'},
}

// StatsController is the part of the controller's API behind sdiag. The
// real client implements it.
type StatsController interface {
	Stats(ctx context.Context, reset bool) (*api.StatsResponse, error)
}

// RPC orders, as sdiag's -i, -t and -T (the default: by count).
const (
	sortCount = iota
	sortID
	sortTime
	sortAverage
)

// Sdiag runs sdiag: the controller's statistics since the last reset, in
// Slurm's layout, or with -r the reset itself (operators only).
func Sdiag(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "sdiag")
	opts, _, err := getopt(env.prog("sdiag"), args, sdiagOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return w.exit(1)
	}
	reset, order := false, sortCount
	for _, o := range opts {
		switch o.id {
		case "a":
			reset = false
		case "r":
			reset = true
		case "i":
			order = sortID
		case "t":
			order = sortTime
		case "T":
			order = sortAverage
		case "h":
			w.printf("%s", sdiagHelp)
			return w.exit(0)
		case "V":
			w.printf("%s\n", versionLine)
			return w.exit(0)
		case "usage":
			w.printf("%s", sdiagUsage)
			return w.exit(0)
		}
	}
	call := "slurm_get_statistics"
	if reset {
		call = "slurm_reset_statistics"
	}
	s, err := fetchStats(ctx, env, reset)
	if err != nil {
		w.raw(call + ": " + errText(err) + "\n")
		return w.exit(255) // Slurm exits with SLURM_ERROR (-1)
	}
	if reset {
		w.printf("Reset scheduling statistics\n")
		return w.exit(0)
	}
	printSdiag(w, env, s, order)
	return w.exit(0)
}

// fetchStats asks the controller for its statistics.
func fetchStats(ctx context.Context, env *Env, reset bool) (*api.StatsResponse, error) {
	c, err := env.Dial(ctx)
	if err != nil {
		return nil, err
	}
	sc, ok := c.(StatsController)
	if !ok {
		return nil, api.NewError(api.CodeNotSupported)
	}
	return sc.Stats(ctx, reset)
}

// printSdiag prints s as Slurm 22.05's sdiag does. Loam's one scheduling
// cycle examines every pending job, so it is reported under both the main
// schedule and the backfill headings.
func printSdiag(w *output, env *Env, s *api.StatsResponse, order int) {
	at := func(sec int64) string { return ctime(time.Unix(sec, 0).In(env.Now().Location())) }
	stars := "*******************************************************\n"
	w.printf("%ssdiag output at %s (%d)\n", stars, at(s.ReqTime), s.ReqTime)
	w.printf("Data since      %s (%d)\n%s", at(s.ReqTimeStart), s.ReqTimeStart, stars)
	w.printf("Server thread count:  %d\n", s.ServerThreads)
	w.printf("Agent queue size:     %d\n", 0)
	w.printf("Agent count:          %d\n", s.AgentCalls)
	w.printf("Agent thread count:   %d\n", s.AgentCalls)
	w.printf("DBD Agent queue size: %d\n\n", 0)

	w.printf("Jobs submitted: %d\n", s.JobsSubmitted)
	w.printf("Jobs started:   %d\n", s.JobsStarted)
	w.printf("Jobs completed: %d\n", s.JobsCompleted)
	w.printf("Jobs canceled:  %d\n", s.JobsCanceled)
	w.printf("Jobs failed:    %d\n\n", s.JobsFailed)

	w.printf("Job states ts:  %s (%d)\n", at(s.JobStatesTime), s.JobStatesTime)
	w.printf("Jobs pending:   %d\n", s.JobsPending)
	w.printf("Jobs running:   %d\n", s.JobsRunning)

	printMainSchedule(w, s)
	printBackfill(w, s, at)
	w.printf("\nLatency for 1000 calls to gettimeofday(): %d microseconds\n", s.TimeLatency)
	printRPCs(w, env, s, order)
}

func printMainSchedule(w *output, s *api.StatsResponse) {
	w.printf("\nMain schedule statistics (microseconds):\n")
	w.printf("\tLast cycle:   %d\n", s.CycleLast)
	w.printf("\tMax cycle:    %d\n", s.CycleMax)
	w.printf("\tTotal cycles: %d\n", s.Cycles)
	if s.Cycles > 0 {
		w.printf("\tMean cycle:   %d\n", s.CycleSum/s.Cycles)
		w.printf("\tMean depth cycle:  %d\n", s.DepthSum/s.Cycles)
	}
	if span := s.ReqTime - s.ReqTimeStart; span > 60 {
		w.printf("\tCycles per minute: %d\n", s.Cycles/(span/60))
	}
	w.printf("\tLast queue length: %d\n", s.QueueLen)
}

func printBackfill(w *output, s *api.StatsResponse, at func(int64) string) {
	w.printf("\nBackfilling stats\n")
	w.printf("\tTotal backfilled jobs (since last slurm start): %d\n", s.Backfilled)
	w.printf("\tTotal backfilled jobs (since last stats cycle start): %d\n", s.Backfilled)
	w.printf("\tTotal backfilled heterogeneous job components: %d\n", 0)
	w.printf("\tTotal cycles: %d\n", s.Cycles)
	if s.LastCycleAt > 0 {
		w.printf("\tLast cycle when: %s (%d)\n", at(s.LastCycleAt), s.LastCycleAt)
	} else {
		w.printf("\tLast cycle when: N/A\n")
	}
	w.printf("\tLast cycle: %d\n", s.CycleLast)
	w.printf("\tMax cycle:  %d\n", s.CycleMax)
	if s.Cycles > 0 {
		w.printf("\tMean cycle: %d\n", s.CycleSum/s.Cycles)
	}
	w.printf("\tLast depth cycle: %d\n", s.QueueLen)
	w.printf("\tLast depth cycle (try sched): %d\n", s.QueueLen)
	if s.Cycles > 0 {
		w.printf("\tDepth Mean: %d\n", s.DepthSum/s.Cycles)
		w.printf("\tDepth Mean (try depth): %d\n", s.DepthSum/s.Cycles)
	}
	w.printf("\tLast queue length: %d\n", s.QueueLen)
	if s.Cycles > 0 {
		w.printf("\tQueue length mean: %d\n", s.DepthSum/s.Cycles)
	}
	w.printf("\tLast table size: %d\n", s.ResvLast)
	if s.Cycles > 0 {
		w.printf("\tMean table size: %d\n", s.ResvSum/s.Cycles)
	}
}

// printRPCs prints the requests by path and by user, in order. Loam
// serves every request at once, so no request is ever pending.
func printRPCs(w *output, env *Env, s *api.StatsResponse, order int) {
	types := slices.Clone(s.RPCTypes)
	slices.SortStableFunc(types, func(a, b api.RPCTypeStat) int {
		return rpcOrder(order, a.Count, a.Time, int64(a.ID), b.Count, b.Time, int64(b.ID))
	})
	users := slices.Clone(s.RPCUsers)
	slices.SortStableFunc(users, func(a, b api.RPCUserStat) int {
		return rpcOrder(order, a.Count, a.Time, int64(a.UID), b.Count, b.Time, int64(b.UID))
	})
	w.printf("\nRemote Procedure Call statistics by message type\n")
	for _, t := range types {
		w.printf("\t%-40s(%5d) count:%-6d ave_time:%-6d total_time:%d\n", t.Path, t.ID, t.Count, average(t.Time, t.Count), t.Time)
	}
	w.printf("\nRemote Procedure Call statistics by user\n")
	for _, u := range users {
		w.printf("\t%-16s(%8d) count:%-6d ave_time:%-6d total_time:%d\n", env.Users.Name(u.UID), u.UID, u.Count,
			average(u.Time, u.Count), u.Time)
	}
	w.printf("\nPending RPC statistics\n\tNo pending RPCs\n")
}

// rpcOrder compares two rows by the order sdiag was asked for, the
// largest first except by id; ties go by id.
func rpcOrder(order int, aCount, aTime, aID, bCount, bTime, bID int64) int {
	var c int
	switch order {
	case sortCount:
		c = cmp.Compare(bCount, aCount)
	case sortTime:
		c = cmp.Compare(bTime, aTime)
	case sortAverage:
		c = cmp.Compare(average(bTime, bCount), average(aTime, aCount))
	}
	return cmp.Or(c, cmp.Compare(aID, bID))
}

func average(total, n int64) int64 {
	if n == 0 {
		return 0
	}
	return total / n
}
