package command

import (
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
)

// Slurm's special step ids, which "12.-5" and the like reach through
// scontrol's strtol.
const (
	stepNoVal   = 0xfffffffe
	stepBatch   = 0xfffffffb
	stepExtern  = 0xfffffffc
	stepPending = 0xfffffffd
	stepInter   = 0xfffffffa
)

// stepSelector is "show step"'s argument as Slurm's scontrol reads it
// with strtol: "12", "12.3", "12_4" (an array task; a step after it is
// ignored), and "12.batch" or "abc" as far as their digits go ("12.0",
// and every job).
type stepSelector struct {
	job  uint32
	task int64  // -1: any
	step uint32 // stepNoVal: any
}

func parseStepSelector(val string, has bool) stepSelector {
	sel := stepSelector{task: -1, step: stepNoVal}
	if !has {
		return sel
	}
	n, rest := strtol(val)
	sel.job = uint32(n)
	switch {
	case len(rest) > 0 && rest[0] == '_':
		t, _ := strtol(rest[1:])
		sel.task = int64(uint32(t))
	case len(rest) > 0 && rest[0] == '.':
		s, _ := strtol(rest[1:])
		sel.step = uint32(s)
	}
	return sel
}

// stepNumber is a step's id as Slurm numbers it.
func stepNumber(id string) uint32 {
	switch id {
	case "batch":
		return stepBatch
	case "extern":
		return stepExtern
	case "interactive":
		return stepInter
	}
	n, err := strconv.ParseUint(id, 10, 32)
	if err != nil {
		return stepPending
	}
	return uint32(n)
}

// matches reports whether the selector takes step st.
func (sel stepSelector) matches(st *api.Step) bool {
	switch {
	case sel.job != 0 && st.JobID != sel.job && st.ArrayJobID != sel.job:
		return false
	case sel.step != stepNoVal && stepNumber(st.StepID) != sel.step:
		return false
	case sel.task >= 0 && (st.ArrayTaskID == nil || int64(*st.ArrayTaskID) != sel.task):
		return false
	}
	return true
}

// notFound is Slurm's line for a selector that took no step.
func (sel stepSelector) notFound() string {
	step := ""
	switch {
	case sel.job == 0:
		step = "Invalid"
	case sel.step != stepNoVal:
		step = stepIDText(sel.step)
	}
	if sel.task >= 0 {
		return "Job step " + u32s(sel.job) + "_" + strconv.FormatInt(sel.task, 10) + "." + step + " not found\n"
	}
	return "Job step " + u32s(sel.job) + "." + step + " not found\n"
}

func stepIDText(n uint32) string {
	switch n {
	case stepBatch:
		return "batch"
	case stepExtern:
		return "extern"
	case stepInter:
		return "interactive"
	case stepPending:
		return "TDB"
	}
	return u32s(n)
}

// showSteps prints "show step [ID]" (and "show steps"): every running step
// the selector takes, each job's batch step before its numbered ones.
func (s *scontrol) showSteps(val string, has bool) {
	sel := parseStepSelector(val, has)
	c, ok := s.controller()
	if !ok {
		return
	}
	var steps []api.Step
	if sl, ok := c.(stepLister); ok {
		q := &api.StepQuery{Known: true}
		if sel.job != 0 {
			q.JobIDs = []uint32{sel.job}
		}
		resp, err := sl.Steps(s.ctx, q)
		if err != nil {
			s.fail("slurm_get_job_steps error: %s\n", errText(err))
			return
		}
		steps = resp.Steps
	}
	s.recordsLine(s.env.Now().Unix(), len(steps))
	f := s.formatter(s.env.Now())
	printed := 0
	for _, st := range batchFirst(steps) {
		if sel.matches(st) {
			s.w.buf = f.appendStep(s.w.buf, st)
			printed++
		}
	}
	switch {
	case printed > 0:
	case has:
		s.exit = 1
		if !s.quiet {
			s.w.printf("%s", sel.notFound())
		}
	case !s.quiet:
		s.w.printf("No job steps in the system\n")
	}
}

// batchFirst orders steps as scontrol lists them: by job as the
// controller lists them, each job's batch step first.
func batchFirst(steps []api.Step) []*api.Step {
	out := make([]*api.Step, 0, len(steps))
	for i := 0; i < len(steps); {
		j := i
		for j < len(steps) && steps[j].JobID == steps[i].JobID {
			j++
		}
		for k := i; k < j; k++ {
			if steps[k].StepID == "batch" {
				out = append(out, &steps[k])
			}
		}
		for k := i; k < j; k++ {
			if steps[k].StepID != "batch" {
				out = append(out, &steps[k])
			}
		}
		i = j
	}
	return out
}

// appendStep appends one step's record as Slurm 22.05's scontrol prints
// it. Loam steps have no time limit, network, reserved ports or CPU
// frequency of their own.
func (f *jobFormatter) appendStep(b []byte, st *api.Step) []byte {
	sep := f.sep()
	id := u32s(st.JobID) + "." + st.StepID
	if st.ArrayTaskID != nil {
		id = u32s(st.ArrayJobID) + "_" + strconv.Itoa(*st.ArrayTaskID) + "." + st.StepID
	}
	b = append(b, "StepId="+id+" UserId="+u32s(st.UserID)+" StartTime="+f.time(st.StartTime)+" TimeLimit=UNLIMITED"+sep...)
	b = append(b, "State="+string(st.State)+" Partition="+st.Partition+" NodeList="+st.Nodes+sep...)
	b = append(b, "Nodes="+strconv.Itoa(st.NodeCount)+" CPUs="+strconv.Itoa(st.CPUs)+" Tasks="+strconv.Itoa(st.Tasks)+
		" Name="+orNull(st.Name)+" Network=(null)"+sep...)
	b = append(b, "TRES="+orNull(st.TRES)+sep+"ResvPorts=(null)"+sep+"CPUFreqReq=Default"...)
	if st.Dist != "" {
		b = append(b, " Dist="+st.Dist...)
	}
	b = append(b, sep+"SrunHost:Pid="+orNull(st.SrunHost)+":"+strconv.Itoa(st.SrunPid)...)
	for _, opt := range []struct{ key, val string }{{"TresBind", st.TRESBind}, {"TresPerStep", st.TRESPerStep},
		{"TresPerNode", st.TRESPerNode}, {"TresPerTask", st.TRESPerTask}} {
		if opt.val != "" {
			b = append(b, sep+opt.key+"="+opt.val...)
		}
	}
	if f.oneLine {
		return append(b, '\n')
	}
	return append(b, "\n\n"...)
}
