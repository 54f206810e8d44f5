package command

import (
	"context"
	"fmt"
	"strings"
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
	width := len("RESV_NAME")
	if !noHeader {
		for _, r := range resp.Reservations {
			width = max(width, len(r.Name))
		}
		w.printf("%-*s %9s %20s %20s %12s  %s\n", width, "RESV_NAME", "STATE", "START_TIME", "END_TIME", "DURATION", "NODELIST")
	}
	f := &jobFormatter{now: now.Unix(), tf: newTimeFormat(env, now)}
	for _, r := range resp.Reservations {
		state := advShownState(&r, now.Unix())
		line := fmt.Sprintf("%-*s %9s %20s %20s %12s  %s", width, r.Name, state, f.time(r.Start), f.time(r.End),
			appendHMS(nil, max(r.End-r.Start, 0)), r.Nodes)
		w.printf("%s\n", strings.TrimRight(line, " "))
	}
	return 0
}
