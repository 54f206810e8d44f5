package command

import (
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
)

// jsonStep is one step of j in the peer's form. Loam measures no energy
// and samples no usage during a step, so its requested and consumed
// TRES are the peer's for a step shorter than one sampling period.
func (pr *acctPrinter) jsonStep(j *api.AcctJob, s *api.AcctStep) jObj {
	numbered := leadingDigits(s.StepID) > 0
	var id any = s.StepID
	if numbered {
		n, _ := strconv.Atoi(s.StepID)
		id = n
	}
	list := jArr{}
	if names, err := hostlist.Expand(s.Nodes); err == nil {
		for _, n := range names {
			list = append(list, n)
		}
	}
	return jObj{
		{"nodes", jObj{{"list", list}, {"count", s.NodeCount}, {"range", s.Nodes}}},
		{"tres", jObj{
			{"requested", jsonStepUse()},
			{"consumed", jsonStepUse()},
			{"allocated", jsonTRES(s.AllocTRES, false)},
		}},
		{"time", jsonStepTime(s)},
		{"exit_code", jsonExit(s.ExitCode)},
		{"tasks", jObj{{"count", max(s.Tasks, 1)}}},
		{"pid", nil},
		{"CPU", jsonStepCPU(numbered)},
		{"kill_request_user", nil},
		{"state", string(s.State)},
		{"statistics", jObj{{"CPU", jObj{{"actual_frequency", 0}}}, {"energy", jObj{{"consumed", 0}}}}},
		{"step", jObj{{"job_id", int64(j.JobID)}, {"het", jObj{{"component", nil}}}, {"id", id}, {"name", s.Name}}},
		{"task", jObj{{"distribution", stepDistribution(s, numbered)}}},
	}
}

func jsonStepUse() jObj {
	energy := func() jArr {
		return jArr{jObj{{"type", "energy"}, {"name", nil}, {"id", 3}, {"count", 0}}}
	}
	return jObj{{"max", jArr{}}, {"min", jArr{}}, {"average", energy()}, {"total", energy()}}
}

// jsonStepCPU is the step's requested CPU frequency: srun's steps carry
// "no frequency asked" (null) and the governors a node may use; the
// batch and extern steps carry nothing.
func jsonStepCPU(numbered bool) jObj {
	if !numbered {
		return jObj{{"requested_frequency", jObj{{"min", 0}, {"max", 0}}}, {"governor", jArr{}}}
	}
	return jObj{
		{"requested_frequency", jObj{{"min", nil}, {"max", nil}}},
		{"governor", jArr{"Conservative", "Performance", "PowerSave", "OnDemand", "UserSpace"}},
	}
}

// stepDistribution is srun's default task layout for the step: block
// when a node holds more than one task, cyclic otherwise; the batch and
// extern steps have none ("Unknown").
func stepDistribution(s *api.AcctStep, numbered bool) string {
	switch {
	case !numbered:
		return "Unknown"
	case s.Tasks > max(s.NodeCount, 1):
		return "Block"
	}
	return "Cyclic"
}

// jsonStepTime is the step's times, its CPU times as measured at its
// end.
func jsonStepTime(s *api.AcctStep) jObj {
	var user, sys int64
	if s.Usage != nil {
		if sum, ok := s.Usage.Summary(); ok {
			user, sys = sum.UserUsec, sum.SysUsec
		}
	}
	usec := func(us int64) jObj { return jObj{{"seconds", us / 1e6}, {"microseconds", us % 1e6}} }
	return jObj{
		{"elapsed", s.Elapsed},
		{"end", s.EndTime},
		{"start", s.StartTime},
		{"suspended", 0},
		{"system", usec(sys)},
		{"total", usec(user + sys)},
		{"user", usec(user)},
	}
}
