package command

import (
	"context"
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
)

// striggerSet sends the trigger the options describe, built as Slurm's
// strigger builds it: a job's, a front end's, a burst buffer's, else the
// nodes' ("*" for every node); controller and database events override
// the resource type and keep the node field.
func striggerSet(ctx context.Context, w *output, tc TriggerController, err error, p striggerParams) int {
	t := api.Trigger{Type: p.events, Offset: p.offset, Perm: p.perm, Program: p.program}
	switch {
	case p.jobID != 0:
		t.ResType, t.ResID = api.TrigResJob, strconv.FormatUint(uint64(p.jobID), 10)
	case p.frontEnd:
		t.ResType = api.TrigResFrontEnd
	case p.events&api.TrigBurstBuffer != 0:
		t.ResType = api.TrigResOther
	default:
		t.ResType, t.ResID = api.TrigResNode, "*"
		if p.node != "" {
			t.ResID = p.node
		}
	}
	ctld := api.TrigPriCtldFail | api.TrigPriCtldResOp | api.TrigPriCtldResCtrl | api.TrigPriCtldAcctFull |
		api.TrigBuCtldFail | api.TrigBuCtldResOp | api.TrigBuCtldAsCtrl
	switch {
	case p.events&(api.TrigPriDBFail|api.TrigPriDBResOp) != 0:
		t.ResType = api.TrigResDatabase
	case p.events&(api.TrigPriDbdFail|api.TrigPriDbdResOp) != 0:
		t.ResType = api.TrigResSlurmdbd
	case p.events&ctld != 0:
		t.ResType = api.TrigResSlurmctld
	}
	if err == nil {
		_, err = tc.SetTrigger(ctx, t)
	}
	if err != nil {
		w.raw("slurm_set_trigger: " + errText(err) + "\n")
		return 1
	}
	if p.verbose > 0 {
		w.raw("strigger: trigger set\n")
	}
	return 0
}

// striggerGet prints the triggers the options select, in Slurm's table.
func striggerGet(ctx context.Context, env *Env, w *output, tc TriggerController, err error, p striggerParams) int {
	var resp *api.TriggersResponse
	if err == nil {
		resp, err = tc.Triggers(ctx)
	}
	if err != nil {
		w.raw("slurm_get_triggers: " + errText(err) + "\n")
		return 1
	}
	if p.verbose > 0 {
		w.raw(sprintf("strigger: Read %d trigger records\n", len(resp.Triggers)))
	}
	lines := 0
	for _, t := range resp.Triggers {
		if !p.selects(t) {
			continue
		}
		if lines == 0 && !p.noHeader {
			w.printf("TRIG_ID RES_TYPE   RES_ID TYPE                                OFFSET USER     FLAGS PROGRAM\n")
		}
		lines++
		res, flags := t.ResID, ""
		if res == "" {
			res = "(null)"
		}
		if t.Perm {
			flags = "PERM"
		}
		w.printf("%7d %-9s %7s %-35s %6d %-8s %-5s %s\n", t.ID, t.ResType, res, api.TriggerTypeName(t.Type),
			t.Offset, striggerUser(env, t.UID), flags, t.Program)
	}
	return 0
}

// striggerUser is the trigger owner's name, or "unknown" for a uid the
// user database lacks, as Slurm's strigger prints it.
func striggerUser(env *Env, uid uint32) string {
	name := env.Users.Name(uid)
	if name == strconv.FormatUint(uint64(uid), 10) {
		return "unknown"
	}
	return name
}

// selects applies --get's filters as Slurm's strigger does: an event
// option keeps the triggers of exactly that event.
func (p *striggerParams) selects(t api.Trigger) bool {
	node := t.ResType == api.TrigResNode
	only := func(bit uint32, resTypes ...string) bool {
		if p.events&bit == 0 {
			return true
		}
		if t.Type != bit {
			return false
		}
		for _, r := range resTypes {
			if t.ResType == r {
				return true
			}
		}
		return len(resTypes) == 0
	}
	jid, _ := strconv.ParseUint(t.ResID, 10, 32)
	switch {
	case p.jobID != 0 && (t.ResType != api.TrigResJob || uint32(jid) != p.jobID),
		p.node != "" && !node,
		p.id != 0 && p.id != t.ID,
		p.uid != nil && *p.uid != t.UID:
		return false
	}
	ctld, dbd, db := api.TrigResSlurmctld, api.TrigResSlurmdbd, api.TrigResDatabase
	checks := []bool{
		only(api.TrigBurstBuffer), only(api.TrigFini),
		only(api.TrigDown, api.TrigResNode, api.TrigResFrontEnd), only(api.TrigDrained, api.TrigResNode),
		only(api.TrigFail, api.TrigResNode), only(api.TrigIdle, api.TrigResNode),
		only(api.TrigUp, api.TrigResNode, api.TrigResFrontEnd), only(api.TrigTime, api.TrigResJob),
		only(api.TrigPriCtldFail, ctld), only(api.TrigPriCtldResOp, ctld), only(api.TrigPriCtldResCtrl, ctld),
		only(api.TrigPriCtldAcctFull, ctld), only(api.TrigBuCtldFail, ctld), only(api.TrigBuCtldResOp, ctld),
		only(api.TrigBuCtldAsCtrl, ctld), only(api.TrigPriDbdFail, dbd), only(api.TrigPriDbdResOp, dbd),
		only(api.TrigPriDBFail, db), only(api.TrigPriDBResOp, db),
	}
	for _, ok := range checks {
		if !ok {
			return false
		}
	}
	return true
}

// striggerClear clears by id, job or user. With -Q a failure is silent
// and the exit status 0, as in Slurm.
func striggerClear(ctx context.Context, w *output, tc TriggerController, err error, p striggerParams) int {
	req := &api.TriggerClearRequest{ID: p.id, JobID: p.jobID, UID: p.uid}
	if err == nil {
		_, err = tc.ClearTriggers(ctx, req)
	}
	if err != nil {
		if p.quiet {
			return 0
		}
		w.raw("slurm_clear_trigger: " + errText(err) + "\n")
		return 1
	}
	if p.verbose > 0 {
		switch {
		case p.jobID != 0:
			w.raw(sprintf("strigger: triggers for job %d cleared\n", p.jobID))
		case p.uid != nil:
			w.raw(sprintf("strigger: triggers for user %d cleared\n", *p.uid))
		default:
			w.raw(sprintf("strigger: trigger %d cleared\n", p.id))
		}
	}
	return 0
}
