package command

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// standing writes, for squeue --me, one plain line per pending job of the
// caller on standard error, after the table:
//
//	job 12 (train): position 3 of 41 in normal, expected start in about 2 h (2026-03-08T14:05:00)
//
// Standard output stays what Slurm prints, so scripts that parse it are
// not disturbed; -h (--noheader) leaves the lines out too. "of N" is the
// number of pending jobs ahead of and behind it in that partition, which
// takes a second, small query over every pending job.
func standing(ctx context.Context, w *output, c Controller, recs []*jobRec, now time.Time) {
	var mine []*api.Job
	for _, r := range recs {
		if r.j.JobState == job.Pending {
			mine = append(mine, r.j)
		}
	}
	if len(mine) == 0 {
		return
	}
	depth := queueDepths(ctx, c)
	var b strings.Builder
	for _, j := range mine {
		b.WriteString(standingLine(j, depth, now))
		b.WriteByte('\n')
	}
	w.raw(b.String())
}

// queueDepths is the last position in each partition's pending queue.
func queueDepths(ctx context.Context, c Controller) map[string]int {
	out := map[string]int{}
	tbl, err := c.JobTable(ctx, &api.JobQuery{Fields: []string{"job_id", "partition", "queue_position", "job_state"},
		States: []string{string(job.Pending)}, All: true})
	if err != nil {
		return out
	}
	jobs, err := tbl.Jobs()
	if err != nil {
		return out
	}
	for i := range jobs {
		p := firstPartition(jobs[i].Partition)
		out[p] = max(out[p], jobs[i].QueuePosition)
	}
	return out
}

func firstPartition(list string) string {
	p, _, _ := strings.Cut(list, ",")
	return p
}

// standingLine says where one pending job stands.
func standingLine(j *api.Job, depth map[string]int, now time.Time) string {
	id := jobIDText(j)
	if j.Name != "" {
		id += " (" + j.Name + ")"
	}
	if j.QueuePosition == 0 {
		return fmt.Sprintf("job %s: not waiting for resources (%s)", id, j.StateReason)
	}
	part := firstPartition(j.Partition)
	of := max(depth[part], j.QueuePosition)
	est := j.EstimatedStart
	if est == 0 {
		est = j.StartTime
	}
	return fmt.Sprintf("job %s: position %d of %d in %s, expected start %s", id, j.QueuePosition, of, part, whenText(est, now))
}

// jobIDText prints 12, 12_3 or 12_[1-4] as the job's line does.
func jobIDText(j *api.Job) string {
	switch {
	case j.ArrayTaskString != "":
		return strconv.FormatUint(uint64(arrayJobID(j)), 10) + "_[" + j.ArrayTaskString + "]"
	case j.ArrayTaskID != nil:
		return strconv.FormatUint(uint64(j.ArrayJobID), 10) + "_" + strconv.Itoa(*j.ArrayTaskID)
	}
	return strconv.FormatUint(uint64(j.JobID), 10)
}

// whenText says when a start is: "now", "in about 2 h (...)", "unknown".
func whenText(unix int64, now time.Time) string {
	if unix == 0 {
		return "unknown"
	}
	t := time.Unix(unix, 0).In(now.Location())
	d := t.Sub(now)
	if d < time.Minute {
		return "now"
	}
	return "in about " + aboutDuration(d) + " (" + t.Format("2006-01-02T15:04:05") + ")"
}

// aboutDuration rounds a wait for people: "40 min", "2 h", "2.5 h", "3 days".
func aboutDuration(d time.Duration) string {
	switch {
	case d < time.Hour:
		return strconv.Itoa(int(d.Round(time.Minute).Minutes())) + " min"
	case d < 48*time.Hour:
		h := d.Round(30 * time.Minute).Hours()
		return strings.TrimSuffix(strconv.FormatFloat(h, 'f', 1, 64), ".0") + " h"
	}
	days := float64(d.Round(12*time.Hour)) / float64(24*time.Hour)
	return strings.TrimSuffix(strconv.FormatFloat(days, 'f', 1, 64), ".0") + " days"
}
