package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/loamhpc/loam/ctld/trigger"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/store"
)

// triggers is the event triggers (strigger) and the runner of their
// programs; it has its own lock, taken after c.mu.
type triggers struct {
	mu     sync.Mutex
	set    *trigger.Set
	next   uint32
	runner trigger.Runner // nil: trigger.OSRunner
	// scripts runs PrologSlurmctld and EpilogSlurmctld the same way
	// (ctldscripts.go); nil: trigger.OSRunner.
	scripts scriptRunner
}

// lock takes tg's lock and returns the set, made empty on first use (a
// controller that restored nothing).
func (tg *triggers) lock() *trigger.Set {
	tg.mu.Lock()
	if tg.set == nil {
		tg.set, tg.next = trigger.NewSet(), max(tg.next, 1)
	}
	return tg.set
}

// triggerRoutes are strigger's endpoints.
func (c *Controller) triggerRoutes() map[string]route {
	return map[string]route{
		api.PathTriggerSet:   {http.MethodPost, false, c.handleTriggerSet},
		api.PathTriggerGet:   {http.MethodPost, false, c.handleTriggerGet},
		api.PathTriggerClear: {http.MethodPost, false, c.handleTriggerClear},
	}
}

// restoreTriggers loads the stored triggers and the id sequence.
func (c *Controller) restoreTriggers() error {
	rows, err := c.store.LoadTriggers()
	if err != nil {
		return err
	}
	next, err := c.store.NextTriggerID()
	if err != nil {
		return err
	}
	tg := &c.trig
	tg.mu.Lock()
	defer tg.mu.Unlock()
	tg.set, tg.next = trigger.NewSet(), next
	for _, row := range rows {
		var t api.Trigger
		if err := json.Unmarshal(row.Record, &t); err != nil {
			return fmt.Errorf("trigger %d: %w", row.ID, err)
		}
		tg.set.Add(t, c.triggerNodes(t))
	}
	return nil
}

// triggerNodes expands a node trigger's host list (nil: every node, or
// not a node trigger). The caller checked the names when it was set.
func (c *Controller) triggerNodes(t api.Trigger) []string {
	if t.ResType != api.TrigResNode || t.ResID == "" || t.ResID == "*" {
		return nil
	}
	names, err := hostlist.Expand(t.ResID)
	if err != nil {
		return []string{}
	}
	return names
}

// handleTriggerSet sets a trigger, for whom mayTrigger allows.
func (c *Controller) handleTriggerSet(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.TriggerSetRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if !c.mayTrigger(id) {
		return nil, api.NewError(api.CodeAccessDenied)
	}
	t := in.Trigger
	t.ID, t.UID, t.GID = 0, id.UID, id.GID
	if aerr := checkTriggerShape(t); aerr != nil {
		return nil, aerr
	}
	nodes, aerr := c.checkTriggerResource(&t)
	if aerr != nil {
		return nil, aerr
	}
	tg := &c.trig
	set := tg.lock()
	defer tg.mu.Unlock()
	set.Seed(nodes)
	if limit := c.confNow().conf.MaxJobCount; id.UID != 0 && limit > 0 && int64(set.Len()) >= limit {
		// Slurm bounds the triggers others than root set by MaxJobCount.
		return nil, api.NewError(api.CodeAgain)
	}
	if set.Duplicate(t) {
		return nil, api.NewError(api.CodeTriggerDup)
	}
	// The id is taken before the program is checked, as in Slurm: a
	// refused trigger leaves a gap.
	t.ID = tg.next
	tg.next++
	if err := programRunnable(t.Program, t.UID, t.GID); err != nil {
		_ = c.store.Update(func(tx *store.Tx) error { return tx.SetNextTriggerID(tg.next) })
		return nil, api.Errorf(api.CodeAccessDenied, "%v", err)
	}
	rec, err := json.Marshal(t)
	if err != nil {
		return nil, api.Errorf(api.CodeInternal, "%v", err)
	}
	if err := c.store.Update(func(tx *store.Tx) error { return tx.PutTrigger(store.TriggerRow{ID: t.ID, Record: rec}) }); err != nil {
		return nil, api.Errorf(api.CodeInternal, "%v", err)
	}
	set.Add(t, c.triggerNodes(t))
	c.log.WithField("trigger", t.ID).WithField("type", api.TriggerTypeName(t.Type)).Info("trigger set")
	return &api.TriggerSetResponse{ID: t.ID}, nil
}

// mayTrigger is Slurm 22.05's rule for setting triggers: root and
// SlurmUser, or anyone with SlurmctldParameters=allow_user_triggers
// (a word found anywhere in the value, case aside, as Slurm looks for
// it). Whatever the parameter, when SlurmUser is not root only SlurmUser
// may, root included: the controller could not start others' programs
// as their users.
func (c *Controller) mayTrigger(id auth.Identity) bool {
	cs := c.confNow()
	switch {
	case id.Via == auth.ViaDaemon:
		return false
	case cs.slurmUID != 0:
		return id.UID == cs.slurmUID
	case id.UID == 0:
		return true
	}
	params := strings.ToLower(cs.conf.Written["slurmctldparameters"])
	return strings.Contains(params, "allow_user_triggers")
}

// checkTriggerShape checks what strigger checks too, for other clients.
func checkTriggerShape(t api.Trigger) *api.Error {
	switch {
	case t.Type == 0:
		return api.Errorf(api.CodeBadRequest, "no trigger event")
	case !strings.HasPrefix(t.Program, "/"):
		return api.Errorf(api.CodeBadRequest, "the program must be an absolute path")
	case t.Offset < -32000 || t.Offset > 32000:
		return api.Errorf(api.CodeBadRequest, "the offset must be between +/-32000")
	}
	switch t.ResType {
	case api.TrigResNode, api.TrigResJob, api.TrigResOther, api.TrigResFrontEnd,
		api.TrigResSlurmctld, api.TrigResSlurmdbd, api.TrigResDatabase:
		return nil
	}
	return api.Errorf(api.CodeBadRequest, "unknown resource type %q", t.ResType)
}

// checkTriggerResource checks the job (it must exist and not have
// finished) or the nodes a trigger names, with Slurm's errors. It returns
// the nodes' conditions now, which events are changes from.
func (c *Controller) checkTriggerResource(t *api.Trigger) (map[string]trigger.NodeView, *api.Error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	nodes := c.triggerSnapshot(nil).Nodes
	if t.ResType == api.TrigResJob {
		jid, err := strconv.ParseUint(t.ResID, 10, 32)
		r := c.jobs[uint32(jid)]
		switch {
		case err != nil || r == nil:
			return nil, api.NewError(api.CodeInvalidJobID)
		case r.finished():
			return nil, api.NewError(api.CodeAlreadyDone)
		}
		t.ResID = strconv.FormatUint(jid, 10)
		return nodes, nil
	}
	if t.ResType != api.TrigResNode || t.ResID == "" || t.ResID == "*" {
		return nodes, nil
	}
	if _, aerr := c.expandNodes(t.ResID); aerr != nil {
		return nil, api.NewError(api.CodeInvalidNodeName)
	}
	return nodes, nil
}

// programRunnable checks the program as Slurm does: the path up to the
// first space names a regular file that uid (or gid, or anyone) may
// execute, by its mode bits.
func programRunnable(program string, uid, gid uint32) error {
	path, _, _ := strings.Cut(program, " ")
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("trigger program %s not found", path)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("trigger program %s not a regular file", path)
	}
	mode := uint32(fi.Mode().Perm())
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		switch {
		case st.Uid == uid:
			mode >>= 6
		case st.Gid == gid:
			mode >>= 3
		}
	}
	if mode&1 == 0 {
		return fmt.Errorf("trigger program %s not executable", path)
	}
	return nil
}

// handleTriggerGet lists the triggers; everyone sees all, as in Slurm.
func (c *Controller) handleTriggerGet(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in struct{}
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	set := c.trig.lock()
	defer c.trig.mu.Unlock()
	return &api.TriggersResponse{Triggers: set.List()}, nil
}

// handleTriggerClear clears the triggers matching the request. Only root
// (not SlurmUser, as in Slurm) clears another user's triggers; with
// nothing cleared the answer is Slurm's ESRCH, or access denied when only
// others' triggers matched.
func (c *Controller) handleTriggerClear(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.TriggerClearRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if in.ID == 0 && in.JobID == 0 && in.UID == nil {
		return nil, api.Errorf(api.CodeBadRequest, "a trigger id, a job id or a user is required")
	}
	tg := &c.trig
	set := tg.lock()
	defer tg.mu.Unlock()
	var cleared []uint32
	denied := false
	for _, t := range set.Clearable() {
		jid, _ := trigger.JobID(t)
		if (in.ID != 0 && in.ID != t.ID) || (in.JobID != 0 && in.JobID != jid) || (in.UID != nil && *in.UID != t.UID) {
			continue
		}
		if t.UID != id.UID && (id.UID != 0 || id.Via == auth.ViaDaemon) {
			denied = true
			continue
		}
		cleared = append(cleared, t.ID)
	}
	if len(cleared) == 0 {
		if denied {
			return nil, api.NewError(api.CodeAccessDenied)
		}
		return nil, api.NewError(api.CodeNoSuchTrigger)
	}
	if err := c.store.Update(func(tx *store.Tx) error {
		for _, tid := range cleared {
			if err := tx.DeleteTrigger(tid); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return nil, api.Errorf(api.CodeInternal, "%v", err)
	}
	for _, tid := range cleared {
		set.Remove(tid)
	}
	return &api.TriggerClearResponse{Cleared: len(cleared)}, nil
}
