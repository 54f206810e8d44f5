package command

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// jobIDList splits a hold/requeue/update job argument ("JobId=12,13_2",
// "12") into references, or returns ok false when it is not job ids.
func jobIDList(s string) ([]string, bool) {
	for _, p := range []string{"jobid=", "job="} {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			s = s[len(p):]
		}
	}
	if s == "" || strings.Trim(s, "0123456789_[]-,%") != "" || s[0] < '0' || s[0] > '9' {
		return nil, false
	}
	return splitJobIDs(s), true
}

// reportResults prints per-job failures as scontrol does and tells
// whether any failed; lastErr is the last failure's text.
func (s *scontrol) reportResults(res *api.JobResults) (lastErr string) {
	for _, r := range res.Results {
		if len(r.Tasks) > 0 {
			s.reportTasks(r.Tasks) // scontrol_jobids.go
			continue
		}
		if r.Error == nil {
			continue
		}
		// An array task's failure reads "12_3: MESSAGE", as the peer
		// prints the per-task answers of an array update; like them it
		// adds no "slurm_suspend error" line after a hold or release.
		if strings.Contains(r.JobID, "_") {
			s.fail("%s: %s\n", r.JobID, r.Error.Message)
			continue
		}
		s.fail("%s for job %s\n", r.Error.Message, r.JobID)
		lastErr = r.Error.Message
	}
	return lastErr
}

// hold handles hold, holdu, uhold and release.
func (s *scontrol) hold(argv []string) {
	op := strings.ToLower(argv[0])
	c, ok := s.jobListController(argv)
	if !ok {
		return
	}
	for _, arg := range argv[1:] {
		ids, isID := jobIDList(arg)
		if !isID {
			var ok bool
			if ids, ok = s.jobsNamed(c, arg); !ok {
				s.fail("%s for job %s\n", api.CodeInvalidJobID.Text(), arg)
				s.fail("slurm_suspend error: %s\n", api.CodeInvalidJobID.Text())
				continue
			}
			if len(ids) == 0 {
				continue // Slurm says nothing when no job has the name
			}
		}
		var res *api.JobResults
		var err error
		switch {
		case strings.HasPrefix(op, "rel"):
			res, err = c.Release(s.ctx, &api.ReleaseRequest{JobIDs: ids})
		default:
			user := strings.HasPrefix(op, "holdu") || strings.HasPrefix(op, "uhold")
			res, err = c.Hold(s.ctx, &api.HoldRequest{JobIDs: ids, User: user})
		}
		if err != nil {
			if ae := (*api.Error)(nil); errors.As(err, &ae) && ae.Code == api.CodeInvalidJobID {
				s.fail("%s for job %s\n", errText(err), arg) // "1_2_3", as the peer words it
			}
			s.fail("slurm_suspend error: %s\n", errText(err))
			continue
		}
		if last := s.reportResults(res); last != "" {
			s.fail("slurm_suspend error: %s\n", last)
		}
	}
}

// jobsNamed resolves "Name=x" / "JobName=x" to the ids of the caller's
// pending jobs with that name, none when no job has it; ok is false when
// arg is no name or the jobs cannot be read.
func (s *scontrol) jobsNamed(c Controller, arg string) ([]string, bool) {
	name, ok := cutPrefixFold(arg, "name=")
	if !ok {
		if name, ok = cutPrefixFold(arg, "jobname="); !ok {
			return nil, false
		}
	}
	resp, err := c.Jobs(s.ctx, &api.JobQuery{Names: []string{name}, States: []string{string(job.Pending)}})
	if err != nil {
		return nil, false
	}
	var ids []string
	for _, j := range resp.Jobs {
		ids = append(ids, string(jobIDCol(nil, &j, nil)))
	}
	return ids, true
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// requeue handles requeue and requeuehold.
func (s *scontrol) requeue(argv []string, hold bool) {
	c, ok := s.jobListController(argv)
	if !ok {
		return
	}
	flags, jobs := requeueFlags(argv[1:]) // scontrol_requeue.go
	flags.Hold = hold
	for _, arg := range jobs {
		s.sendJobList(arg, func(ids []string) (*api.JobResults, error) {
			req := flags
			req.JobIDs = ids
			return c.Requeue(s.ctx, &req)
		})
	}
}

// jobListController checks that a job-list command (hold, release,
// requeue, suspend, resume) names jobs, as Slurm's scontrol does before
// anything else, and returns the controller to send them to.
func (s *scontrol) jobListController(argv []string) (Controller, bool) {
	if len(argv) < 2 {
		s.fail("too few arguments for keyword:%s\n", argv[0])
		return nil, false
	}
	return s.controller()
}

// sendJobList sends one job list argument ("12,13_[1-3]") with send and
// reports the answer, job by job, as Slurm's requeue and suspend do.
func (s *scontrol) sendJobList(arg string, send func(ids []string) (*api.JobResults, error)) {
	ids, isID := jobIDList(arg)
	if !isID {
		s.fail("%s for job %s\n", api.CodeInvalidJobID.Text(), arg)
		return
	}
	res, err := send(ids)
	if err != nil {
		s.fail("%s for job %s\n", errText(err), arg)
		return
	}
	s.reportResults(res)
}

// update handles "update JobId=... KEY=VAL..." and "update
// NodeName=... State=... Reason=...". As in Slurm, a JobId (or JobName)
// anywhere makes it a job update, even with a Partition= among the keys.
func (s *scontrol) update(args []string) {
	var job, node, part, resv bool
	for i := 0; i < len(args); i++ {
		tag, _, hasEq := strings.Cut(args[i], "=")
		if !hasEq {
			i++
		}
		switch {
		case abbrev(tag, "NodeName", 3):
			node = true
		case abbrev(tag, "PartitionName", 3):
			part = true
		case abbrev(tag, "ReservationName", 3):
			resv = true
		case abbrev(tag, "JobId", 3), abbrev(tag, "JobName", 3):
			job = true
		}
	}
	switch {
	case job:
		s.updateJob(args)
	case node:
		s.updateNode(args)
	case resv:
		s.updateReservation(args) // scontrol_advresv.go
	case part:
		s.updatePartition(args) // scontrol_partition.go
	default:
		s.fail("No valid entity in update command\nInput line must include \"NodeName\", " +
			"\"PartitionName\", \"Reservation\", \"JobId\", or \"SlurmctldDebug\"\n")
	}
}

// updateArg is one KEY=VALUE of an update, with "KEY VALUE" allowed;
// bare is a keyword that takes no value (Nice, ResetAccrueTime).
type updateArg struct {
	tag, val, raw string
	bare          bool
}

func splitUpdateArgs(args []string) ([]updateArg, string) {
	var out []updateArg
	for i := 0; i < len(args); i++ {
		tag, val, ok := strings.Cut(args[i], "=")
		bare := false
		switch {
		case ok:
		case abbrev(args[i], "Nice", 2):
			val = "100"
		case abbrev(args[i], "ResetAccrueTime", 3):
			bare = true
		case i+1 < len(args):
			i++
			val = args[i]
		default:
			return nil, args[i]
		}
		out = append(out, updateArg{tag: tag, val: val, raw: args[i], bare: bare})
	}
	return out, ""
}

func (s *scontrol) updateJob(args []string) {
	list, bad := splitUpdateArgs(args)
	if bad != "" {
		s.fail("Invalid input: %s\nRequest aborted\n", bad)
		return
	}
	var ids []string
	var u api.JobUpdate
	counted := false // an EndTime= scontrol could not read still sends the update
	for _, a := range list {
		if abbrev(a.tag, "JobId", 3) {
			if a.val == "" {
				return // the peer does nothing and exits 0
			}
			var ok bool
			if ids, ok = jobIDList(a.val); !ok {
				s.fail("Invalid job id specified for job %s\n", a.val)
				return
			}
			continue
		}
		msg, how := s.setJobField(&u, a, ids)
		counted = counted || how == fieldSkippedCounted
		if how != fieldSet && !s.fieldMessage(msg, how) {
			return
		}
	}
	switch {
	case u.Empty() && counted:
		return // the controller would change nothing
	case u.Empty():
		s.fail("No changes specified\n")
		return
	}
	if ids == nil {
		s.fail("scontrol: error: No job ID specified\n")
		return
	}
	c, ok := s.controller()
	if !ok {
		return
	}
	// NumNodes= and NodeList= change a job's size: as in Slurm, only for
	// one job (several: nothing is sent, exit 1), and in a job's
	// environment the new size is written out for the shell.
	resize := u.MinNodes != nil || u.RequiredNodes != nil
	if resize && len(ids) != 1 {
		s.exit = 1
		return
	}
	res, err := c.Update(s.ctx, &api.UpdateRequest{JobIDs: ids, Update: u})
	if err != nil {
		s.fail("%s for job %s\n", errText(err), strings.Join(ids, ","))
		return
	}
	if s.reportResults(res) == "" && resize && len(res.Results) == 1 && res.Results[0].Error == nil {
		s.resizeFiles(ids[0]) // scontrol_resize.go
	}
}

// setLimit parses a time limit; "+N"/"-N" change the job's current limit.
func (s *scontrol) setLimit(dst **int64, v string, ids []string, name string) string {
	sign := byte(0)
	if v != "" && (v[0] == '+' || v[0] == '-') {
		sign, v = v[0], v[1:]
	}
	d, err := slurmtime.ParseTimeLimit(v)
	if err != nil {
		return "scontrol: error: Invalid " + name + " value\n"
	}
	secs := int64(d / time.Second)
	switch {
	case d == slurmtime.Unlimited && sign != 0 && v != "" && v[0] >= '0' && v[0] <= '9':
		secs = 0 // "+0": Slurm's time_str2mins reads 0 minutes, not no limit
	case d == slurmtime.Unlimited:
		secs = api.UnlimitedSeconds
	}
	if sign != 0 {
		if len(ids) != 1 {
			return "scontrol: error: JobId must precede TimeLimit increment or decrement\n"
		}
		cur, msg := s.currentLimit(ids[0])
		if msg != "" {
			return msg
		}
		if sign == '-' {
			if secs > cur {
				return "scontrol: error: TimeLimit decrement larger than current time limit (" +
					fmt.Sprint(secs/60) + " > " + fmt.Sprint(cur/60) + ")\n"
			}
			secs = cur - secs
		} else {
			secs = cur + secs
		}
	}
	*dst = &secs
	return ""
}

func (s *scontrol) currentLimit(id string) (int64, string) {
	c, ok := s.controller()
	if !ok {
		return 0, "scontrol: error: Could not load state information for job " + id + "\n"
	}
	resp, err := c.Jobs(s.ctx, &api.JobQuery{JobIDs: []string{id}})
	if err != nil || len(resp.Jobs) == 0 {
		return 0, "scontrol: error: Job ID " + id + " not found\n"
	}
	if len(resp.Jobs) > 1 {
		return 0, "scontrol: error: TimeLimit increment/decrement not supported for job arrays\n"
	}
	return resp.Jobs[0].TimeLimit, ""
}

// updateNode handles "update NodeName=LIST State=... Reason=...".
func (s *scontrol) updateNode(args []string) {
	list, bad := splitUpdateArgs(args)
	if bad != "" {
		s.fail("Invalid input: %s\nRequest aborted\n", bad)
		return
	}
	var req api.NodeUpdateRequest
	for _, a := range list {
		switch {
		case abbrev(a.tag, "NodeName", 3):
			req.Nodes = a.val
		case abbrev(a.tag, "State", 1):
			req.State = strings.ToUpper(a.val)
			if !knownNodeState(req.State) { // scontrol_partition_node.go
				s.fail("Invalid input: %s\nRequest aborted\n%s", a.raw, nodeStatesHelp)
				return
			}
		case abbrev(a.tag, "Reason", 1):
			req.Reason = a.val
		case abbrev(a.tag, "Weight", 1):
			w, msg := nodeWeight(a.val) // scontrol_partition_node.go
			if msg != "" {
				s.fail("%s", msg)
				return
			}
			req.Weight = &w
		case abbrev(a.tag, "AvailableFeatures", 3), abbrev(a.tag, "Features", 1):
			f := strtok(a.val, ",")
			req.Features = &f
		case abbrev(a.tag, "ActiveFeatures", 3):
			f := strtok(a.val, ",")
			req.ActiveFeatures = &f
		case abbrev(a.tag, "CpuBind", 7):
			v, err := slurmconf.ParseCPUBind(a.val)
			if err != nil {
				s.fail("scontrol: error: Invalid input %s\nslurm_update error: No error\n", a.raw)
				return
			}
			req.CPUBind = &v // empty changes nothing (updatedCPUBind)
		case abbrev(a.tag, "Gres", 1):
			g := a.val
			req.GRES = &g
		case abbrev(a.tag, "Comment", 2):
			v := a.val
			req.Comment = &v
		case abbrev(a.tag, "Extra", 1):
			v := a.val
			req.Extra = &v
		default:
			s.fail("Update of this parameter is not supported: %s\nRequest aborted\n", a.raw)
			return
		}
	}
	if onlyNodeNames(list) {
		s.fail("No changes specified\n")
		return
	}
	if (req.State == "DRAIN" || req.State == "DOWN" || req.State == "FAIL") && req.Reason == "" {
		s.fail("You must specify a reason when DOWNING or DRAINING a node. Request denied\n")
		return
	}
	c, ok := s.controller()
	if !ok {
		return
	}
	if _, err := c.UpdateNodes(s.ctx, &req); err != nil {
		s.fail("slurm_update error: %s\n", errText(err))
	}
}
