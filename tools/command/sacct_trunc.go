package command

import (
	"slices"

	"github.com/loamhpc/loam/pkg/api"
)

// acctWindow is sacct -T: cut every time to the window [start, end], as
// Slurm's accounting does without JOBCOND_FLAG_NO_TRUNC.
type acctWindow struct {
	on         bool
	start, end int64 // end: the window's end, now at the latest
}

// cut returns j with its times cut to the window: a start before it
// moves to its start, an end after it (or no end) to its end, a job that
// never started starts at its end; Elapsed is what is left. Steps are
// cut only when the window has a start; one that falls outside it gets
// no times.
func (w acctWindow) cut(j *api.AcctJob) *api.AcctJob {
	if !w.on {
		return j
	}
	c := *j
	if c.StartTime != 0 && c.StartTime < w.start {
		c.StartTime = w.start
	}
	if c.EndTime == 0 || c.EndTime > w.end {
		c.EndTime = w.end
	}
	if c.StartTime == 0 {
		c.StartTime = c.EndTime
	}
	c.Elapsed = max(c.EndTime-c.StartTime, 0)
	if w.start == 0 {
		return &c
	}
	c.Steps = slices.Clone(j.Steps)
	for i := range c.Steps {
		s := &c.Steps[i]
		if s.StartTime != 0 && s.StartTime < w.start {
			s.StartTime = w.start
		}
		if s.StartTime == 0 && s.EndTime != 0 {
			s.StartTime = s.EndTime
		}
		if s.EndTime == 0 || s.EndTime > w.end {
			s.EndTime = w.end
		}
		if s.StartTime != 0 && s.EndTime != 0 && s.StartTime > s.EndTime {
			s.StartTime, s.EndTime = 0, 0
		}
		s.Elapsed = max(s.EndTime-s.StartTime, 0)
	}
	return &c
}
