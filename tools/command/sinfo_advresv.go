package command

import (
	"context"
	"time"
)

// sinfoResvs prints sinfo -T: the administrators' reservations in Slurm
// 22.05's layout. The name column is as wide as the longest name when
// the header is printed, and 9 wide without it (the peer does the same;
// longer names are never cut).
func sinfoResvs(ctx context.Context, env *Env, w *output, c Controller, noHeader bool, now time.Time) int {
	ac, ok := c.(AdvResvController)
	if !ok {
		w.printf("No reservations in the system\n")
		return 0
	}
	resp, err := ac.AdvResvs(ctx, nil)
	if err != nil {
		w.errf("%s", errText(err))
		return 1
	}
	if len(resp.Reservations) == 0 {
		w.printf("No reservations in the system\n")
		return 0
	}
	width := len("RESV_NAME") // -h leaves it at that, as Slurm's sinfo
	if !noHeader {
		for _, r := range resp.Reservations {
			width = max(width, len(r.Name))
		}
		w.printf(resvLine, width, "RESV_NAME", "STATE", "START_TIME", "END_TIME", "DURATION", "NODELIST")
	}
	f := &jobFormatter{now: now.Unix(), tf: newTimeFormat(env, now)}
	for _, r := range resp.Reservations {
		state := advShownState(&r, now.Unix())
		w.printf(resvLine, width, r.Name, state, f.time(r.Start), f.time(r.End),
			appendHMS(nil, max(r.End-r.Start, 0)), r.Nodes)
	}
	return 0
}

// resvLine is Slurm's sinfo -T line: a field wider than its column (a
// duration of days) pushes the rest right rather than being cut.
const resvLine = "%-*s  %8s  %19s  %19s  %11s  %s\n"
