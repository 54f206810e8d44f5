package slurmconf

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// CtldScripts is what the controller runs or decides around a job's
// allocation: slurm.conf's PrologSlurmctld, EpilogSlurmctld, RequeueExit
// and RequeueExitHold.
type CtldScripts struct {
	// PrologSlurmctld runs on the controller host when a job has been
	// given its nodes, before it launches (the job shows CONFIGURING
	// meanwhile); EpilogSlurmctld when a job that had nodes ends. ""
	// runs nothing.
	PrologSlurmctld, EpilogSlurmctld string
	// RequeueExit and RequeueExitHold are the batch exit codes that put
	// the job back in the queue, the second one held in SPECIAL_EXIT
	// state; each sorted, without duplicates.
	RequeueExit, RequeueExitHold []int
	// ResvProlog runs when an advance reservation starts, ResvEpilog when
	// it ends, each with the reservation's name as its one argument.
	ResvProlog, ResvEpilog string
}

// maxExitCode is the largest exit status a process can have, the highest
// code RequeueExit may name.
const maxExitCode = 255

// ParseExitCodes reads an exit code list as RequeueExit takes it: codes
// and ranges separated by commas ("1-3,5"), each from 0 to 255. The
// result is sorted and without duplicates.
func ParseExitCodes(s string) ([]int, error) {
	var out []int
	for _, item := range splitList(s) {
		lo, hi, isRange := strings.Cut(item, "-")
		a, ok := exitCode(lo)
		b := a
		if isRange {
			var okHi bool
			b, okHi = exitCode(hi)
			ok = ok && okHi
		}
		switch {
		case !ok:
			return nil, fmt.Errorf("%q is not an exit code (0-%d)", item, maxExitCode)
		case b < a:
			return nil, fmt.Errorf("%q is not a range: %d is above %d", item, a, b)
		}
		for n := a; n <= b; n++ {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// exitCode reads one exit code.
func exitCode(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil && n >= 0 && n <= maxExitCode
}

// decodeCtldScripts reads the controller's script and requeue keys into
// c.CtldScripts.
func decodeCtldScripts(x *dec, c *Config) {
	s := &c.CtldScripts
	x.scriptPath("PrologSlurmctld", &s.PrologSlurmctld)
	x.scriptPath("EpilogSlurmctld", &s.EpilogSlurmctld)
	x.scriptPath("ResvProlog", &s.ResvProlog)
	x.scriptPath("ResvEpilog", &s.ResvEpilog)
	x.exitCodes("RequeueExit", &s.RequeueExit)
	x.exitCodes("RequeueExitHold", &s.RequeueExitHold)
}

// exitCodes decodes an exit code list (ParseExitCodes).
func (x *dec) exitCodes(name string, dst *[]int) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	codes, err := ParseExitCodes(f.Value)
	if err != nil {
		x.bad(f, "%v", err)
		return
	}
	*dst = codes
}

// RequeueOn reports whether a batch job that exited with status code goes
// back to the queue, and whether held (RequeueExitHold). A code in both
// lists is not held: the peer requeued such a job plainly.
func (s *CtldScripts) RequeueOn(code int) (requeue, hold bool) {
	if _, ok := slices.BinarySearch(s.RequeueExit, code); ok {
		return true, false
	}
	_, ok := slices.BinarySearch(s.RequeueExitHold, code)
	return ok, ok
}
