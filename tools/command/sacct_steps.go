package command

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// acctSel is one -j entry: a job (with its array task) and, for
// "JOB.STEP", the one step to show.
type acctSel struct {
	job  uint32
	task int // -1: any
	step string
}

// noStep is the step number Slurm reads as "the whole job" (NO_VAL).
const noStep = "4294967294"

// parseAcctJobs reads a -j list as sacct's slurm_addto_step_list does:
// "JOB", "JOB_TASK", "JOB.STEP" and "JOB_TASK.STEP", STEP a number or
// batch, extern or interactive, the entries split as parseCharList
// splits them (quotes, empty entries). It returns the job references for the
// controller and the selections; msg is sacct's fatal line for a bad
// entry. An entry of another shape goes to the controller as it is.
func parseAcctJobs(list string) (refs []string, sels []acctSel, msg string) {
	for _, tok := range parseCharList(list) {
		i := leadingDigits(tok)
		if i == 0 {
			return nil, nil, "Bad job/step specified: " + tok
		}
		id, rest := tok[:i], tok[i:]
		n, _ := strconv.ParseUint(id, 10, 32)
		sel, ref := acctSel{job: uint32(n), task: -1}, id
		if t, ok := strings.CutPrefix(rest, "_"); ok {
			k := leadingDigits(t)
			if k == 0 {
				return nil, nil, "Bad job array element specified: " + id
			}
			sel.task, _ = strconv.Atoi(t[:k])
			ref, rest = tok[:i+1+k], t[k:]
		}
		if s, ok := strings.CutPrefix(rest, "."); ok {
			step, ok := stepName(s)
			if !ok {
				return nil, nil, "Bad step specified: " + id
			}
			sel.step, rest = step, ""
		}
		if rest != "" {
			refs = append(refs, tok)
			continue
		}
		refs, sels = append(refs, ref), append(sels, sel)
	}
	return refs, sels, ""
}

func leadingDigits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// stepName reads the step of "JOB.STEP": its leading number (what
// follows it is ignored, as strtol does) or a named step; "" is the
// whole job.
func stepName(s string) (string, bool) {
	if k := leadingDigits(s); k > 0 {
		if s[:k] == noStep {
			return "", true
		}
		return strings.TrimLeft(s[:k], "0") + strings.Repeat("0", boolInt(strings.Trim(s[:k], "0") == "")), true
	}
	for _, name := range []string{"batch", "extern", "interactive"} {
		if strings.HasPrefix(strings.ToLower(s), name) {
			return name, true
		}
	}
	return "", false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// stepsShown says which of j's lines sacct prints for the -j entries,
// read in order as Slurm's accounting does: the steps named before the
// first entry that names the whole job; the job line once an entry names
// the whole job. With no entry for j (or no step named) every line.
func stepsShown(sels []acctSel, j *api.AcctJob) (jobLine bool, steps map[string]bool) {
	named := false
	for _, s := range sels {
		if s.job != j.JobID && s.job != j.ArrayJobID {
			continue
		}
		if s.task >= 0 && (j.ArrayTaskID == nil || *j.ArrayTaskID != s.task) {
			continue
		}
		named = true
		if s.step == "" {
			jobLine = true
			break
		}
		if steps == nil {
			steps = map[string]bool{}
		}
		steps[s.step] = true
	}
	return jobLine || !named, steps
}
