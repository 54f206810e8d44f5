package command

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
)

// scancelRun carries out a parsed scancel; rc is the exit status so far.
type scancelRun struct {
	p  *scancelParams
	w  *output
	c  Controller
	in *bufio.Reader
	rc int
}

// byString sends the job arguments as given, one request for all.
func (r *scancelRun) byString(ctx context.Context) int {
	if r.p.verbose > 0 {
		for _, s := range r.p.texts {
			r.w.raw(r.p.verb("job", s))
		}
	}
	var texts []string
	var hetZero []namedJob
	for _, s := range r.p.texts {
		ids, _, _, _ := parseScancelID(s) // parsed before: one text, one job
		switch id := ids[0]; id.het {
		case noHet:
			texts = append(texts, s)
		case 0:
			// Loam runs no hetjobs: component 0 of a live job is refused
			// as slurmctld refuses it for a job that is not one; any other
			// component is left alone without a word (the peer exits 0).
			// Before the job itself may be cancelled ("12+0,12").
			hetZero = append(hetZero, namedJob{fmt.Sprintf("%d+0", id.job), id.job})
		}
	}
	r.refuseLive(ctx, hetZero, "Job not heterogeneous job", notHetJobErrno)
	r.send(ctx, texts)
	return r.rc
}

// namedJob is a job argument as scancel names it in its messages and the
// job it names.
type namedJob struct {
	text string
	job  uint32
}

// refuseLive answers each named job that is still live (or an array with
// a live task) with slurmctld's refusal why and exit status errno, and
// touches none of them; a job that does not exist gets no word, as on
// the peer.
func (r *scancelRun) refuseLive(ctx context.Context, jobs []namedJob, why string, errno int) {
	if len(jobs) == 0 {
		return
	}
	q := &api.JobQuery{}
	for _, n := range jobs {
		q.JobIDs = append(q.JobIDs, strconv.FormatUint(uint64(n.job), 10))
	}
	resp, err := r.c.Jobs(ctx, q)
	if err != nil {
		r.w.errf("%s", errText(err))
		r.rc = max(r.rc, 1)
		return
	}
	for _, n := range jobs {
		for k := range resp.Jobs {
			if j := &resp.Jobs[k]; (j.JobID == n.job || j.ArrayJobID == n.job) && active(j) {
				r.w.errf("Kill job error on job id %s: %s", n.text, why)
				r.rc = max(r.rc, errno)
				break
			}
		}
	}
}

// notFederated answers scancel --sibling as slurmctld answers it for a
// job that is not part of a federation, which every Loam job is: each
// live job named is "Not a valid federated job" and nothing is cancelled
// or signalled.
func (r *scancelRun) notFederated(ctx context.Context, ids []string) {
	var jobs []namedJob
	for _, s := range ids {
		if ref, err := api.ParseJobRef(s); err == nil {
			jobs = append(jobs, namedJob{s, ref.JobID})
		}
	}
	r.refuseLive(ctx, jobs, "Not a valid federated job", notFederatedErrno)
}

// notFederatedErrno is scancel's exit status for ESLURM_JOB_NOT_FEDERATED
// (7103, truncated to 8 bits).
const notFederatedErrno = 7103 & 0xff

// notHetJobErrno is scancel's exit status for ESLURM_NOT_HET_JOB (2106,
// truncated to 8 bits as slurmErrno does).
const notHetJobErrno = 2106 & 0xff

// byRecord looks the jobs up, checks the job arguments, applies the
// filters, then acts on each match: pending jobs first, so that none
// starts while the running ones are being cancelled.
func (r *scancelRun) byRecord(ctx context.Context) int {
	resp, err := r.c.Jobs(ctx, &api.JobQuery{All: true}) // Slurm's scancel loads with SHOW_ALL
	if err != nil {
		r.w.raw("slurm_load_jobs error: " + errText(err) + "\n")
		return 1
	}
	set := newScancelSet(resp.Jobs)
	ids := r.verify(set)
	if r.p.filters.any() {
		r.filter(set)
	}
	for _, pendingPass := range []bool{true, false} {
		if len(r.p.ids) > 0 {
			r.cancelIDs(ctx, set, ids, pendingPass)
		} else {
			r.cancelAll(ctx, set, pendingPass)
		}
	}
	return r.rc
}

// scancelSet is the loaded job records; live[i] is false once record i is
// finished, filtered out or acted on.
type scancelSet struct {
	jobs []api.Job
	live []bool
}

func newScancelSet(jobs []api.Job) *scancelSet {
	s := &scancelSet{jobs: jobs, live: make([]bool, len(jobs))}
	for i := range jobs {
		s.live[i] = active(&jobs[i])
	}
	return s
}

// argState is what verify learnt of one job argument.
type argState struct {
	found   bool
	pending bool // it names a pending record
}

// verify marks the job arguments that name a live record, reports the
// others (exit 1) and leaves live only the records some argument names.
func (r *scancelRun) verify(set *scancelSet) []argState {
	if len(r.p.ids) == 0 {
		return nil
	}
	st := make([]argState, len(r.p.ids))
	for i := range set.jobs {
		if !set.live[i] {
			continue
		}
		j := &set.jobs[i]
		named := false
		for k, id := range r.p.ids {
			if id.matches(j) {
				st[k].found, named = true, true
				st[k].pending = st[k].pending || baseState(j.JobState) == job.Pending
			}
		}
		set.live[i] = named
	}
	for k, id := range r.p.ids {
		if st[k].found {
			continue
		}
		r.rc = max(r.rc, 1)
		if r.p.verbose < 0 {
			continue
		}
		if id.step == batchStep {
			r.w.errf("Kill job error on job id %s: %s", id.name(), api.CodeInvalidJobID.Text())
		} else {
			r.w.errf("Kill job error on job step id %s.%d: %s", id.name(), id.step, api.CodeInvalidJobID.Text())
		}
	}
	return st
}

// filter leaves live only the pending, running and suspended records that
// pass every filter; with -v it says when none does.
func (r *scancelRun) filter(set *scancelSet) {
	f := &r.p.filters
	nodes := f.nodeSet()
	matches := 0
	for i := range set.jobs {
		if set.live[i] {
			set.live[i] = f.pass(&set.jobs[i], nodes)
		}
		if set.live[i] {
			matches++
		}
	}
	if matches == 0 && r.p.verbose > 0 {
		r.w.errf("No active jobs match ALL job filters, including: %s", f.describe())
	}
}

// cancelIDs acts on the records the job arguments name, argument by
// argument; the pending pass takes only arguments that named a pending
// record. A step of a pending job is left alone.
func (r *scancelRun) cancelIDs(ctx context.Context, set *scancelSet, st []argState, pendingPass bool) {
	var batch []string
	for k, id := range r.p.ids {
		if !st[k].found || (pendingPass && !st[k].pending) {
			continue
		}
		for i := range set.jobs {
			j := &set.jobs[i]
			if !set.live[i] || (id.step != batchStep && baseState(j.JobState) == job.Pending) || !id.matches(j) {
				continue
			}
			if r.p.interactive && !r.confirm(j, id.step) {
				set.live[i] = false
				continue
			}
			if id.step != batchStep {
				r.cancelStep(ctx, j, id.step)
				continue
			}
			batch = r.queue(ctx, batch, jobIDString(j))
			set.live[i] = false
		}
	}
	r.flush(ctx, batch)
}

// cancelAll acts on every record the filters left: in the pending pass
// only those exactly PENDING.
func (r *scancelRun) cancelAll(ctx context.Context, set *scancelSet, pendingPass bool) {
	var batch []string
	for i := range set.jobs {
		j := &set.jobs[i]
		if !set.live[i] || (pendingPass && j.JobState != job.Pending) {
			continue
		}
		set.live[i] = false
		if r.p.interactive && !r.confirm(j, batchStep) {
			continue
		}
		batch = r.queue(ctx, batch, jobIDString(j))
	}
	r.flush(ctx, batch)
}

// queue adds a job to the next request; -i sends each at once, so that
// its errors come before the next question.
func (r *scancelRun) queue(ctx context.Context, batch []string, id string) []string {
	batch = append(batch, id)
	if r.p.interactive {
		r.flush(ctx, batch)
		return nil
	}
	return batch
}

// flush announces (-v) and sends the queued jobs.
func (r *scancelRun) flush(ctx context.Context, batch []string) {
	if len(batch) == 0 {
		return
	}
	if r.p.verbose > 0 {
		for _, id := range batch {
			r.w.raw(r.p.verb("job", id))
		}
	}
	r.send(ctx, batch)
}

// send asks the controller to act on ids (job references as scancel
// names them) and reports each outcome. A reference the controller cannot
// read is an invalid job id, as Slurm's controller answers it.
func (r *scancelRun) send(ctx context.Context, ids []string) {
	if r.p.sibling != "" {
		r.notFederated(ctx, ids)
		return
	}
	var valid []string
	for _, s := range ids {
		if _, err := api.ParseJobRef(s); err == nil {
			valid = append(valid, s)
		}
	}
	got := map[string]*api.Error{}
	if len(valid) > 0 {
		req := &api.CancelRequest{Filter: api.JobFilter{JobIDs: valid}, Signal: r.p.signal,
			BatchOnly: r.p.batch, Full: r.p.full}
		res, err := r.c.Cancel(ctx, req)
		if err != nil {
			for _, s := range valid {
				got[s] = transportError(err)
			}
		} else {
			for i, x := range res.Results {
				if len(res.Results) == len(valid) {
					x.JobID = valid[i] // the answer may name "12_*" as "12"
				}
				got[x.JobID] = refError(x)
			}
		}
	}
	for _, s := range ids {
		e, ok := got[s]
		if !ok && !slices.Contains(valid, s) {
			e = api.NewError(api.CodeInvalidJobID)
		}
		r.jobOutcome(s, e)
	}
}

// refError is the error scancel reports for one reference: any task it
// named that no job holds makes it an invalid job id, as the peer's
// scancel -v A_[2-5] says for an array of tasks 1-3 (the tasks it holds
// are cancelled all the same).
func refError(x api.JobResult) *api.Error {
	for _, t := range x.Tasks {
		if t.Error != nil && t.Error.Code == api.CodeInvalidJobID {
			return t.Error
		}
	}
	return x.Error
}

// transportError is a request that failed as a whole, as an error of
// each job.
func transportError(err error) *api.Error {
	var e *api.Error
	if errors.As(err, &e) {
		return e
	}
	return &api.Error{Code: api.CodeError, Message: errText(err)}
}

// jobOutcome reports one job's error as Slurm's scancel does: a job that
// is gone or unknown only with -v, and it fails the command only when a
// signal other than SIGKILL was asked for; any other error always, and
// the exit status is Slurm's error number (mod 256).
func (r *scancelRun) jobOutcome(id string, e *api.Error) {
	if e == nil {
		return
	}
	gone := e.Code == api.CodeInvalidJobID || e.Code == api.CodeAlreadyDone
	if r.p.verbose > 0 || !gone {
		r.w.errf("Kill job error on job id %s: %s", id, e.Message)
	}
	if gone && r.p.killing() {
		return
	}
	r.rc = max(r.rc, slurmErrno(e.Code))
}

// cancelStep ends or signals step of running job j: the controller sends
// the order to the step's nodes. A step that does not run is reported as
// Slurm reports it; a signal other than a cancel to it goes, in Slurm, to
// the node daemons, which ignore it, so it is silent unless --ctld.
func (r *scancelRun) cancelStep(ctx context.Context, j *api.Job, step int) {
	jid := strconv.FormatUint(uint64(j.JobID), 10)
	if r.p.verbose > 0 {
		if r.p.killing() {
			r.w.raw("scancel: Terminating step " + jid + "." + strconv.Itoa(step) + "\n")
		} else {
			r.w.raw("scancel: Signal " + strconv.Itoa(r.p.signal) + " to step " + jid + "." + strconv.Itoa(step) + "\n")
		}
	}
	e := r.sendStep(ctx, jid, step)
	switch {
	case e == nil:
		return
	case e.Code == api.CodeInvalidJobID && r.p.signal != 0 && !r.p.ctld:
		return
	case e.Code == api.CodeInvalidJobID:
		e = api.NewError(api.CodeInvalidJobID) // Slurm's text, whatever the detail
	}
	r.w.errf("Kill job error on job step id %s: %s", jid, e.Message)
	r.rc = max(r.rc, slurmErrno(e.Code))
}

// sendStep asks the controller to act on step step of job jid.
func (r *scancelRun) sendStep(ctx context.Context, jid string, step int) *api.Error {
	if step < 0 || step > math.MaxUint32 {
		return api.NewError(api.CodeInvalidJobID)
	}
	id := uint32(step)
	req := &api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{jid}}, Signal: r.p.signal, Step: &id}
	res, err := r.c.Cancel(ctx, req)
	switch {
	case err != nil:
		return transportError(err)
	case len(res.Results) == 0:
		return api.NewError(api.CodeInvalidJobID)
	}
	return res.Results[0].Error
}

// confirm asks about one record (-i) until the answer starts with y or n;
// the end of input is no.
func (r *scancelRun) confirm(j *api.Job, step int) bool {
	for {
		if step == batchStep {
			r.w.printf("Cancel job_id=%s name=%s partition=%s [y/n]? ", jobIDString(j), j.Name, j.Partition)
		} else {
			r.w.printf("Cancel step_id=%s.%d name=%s partition=%s [y/n]? ", jobIDString(j), step, j.Name, j.Partition)
		}
		r.w.flush()
		line, err := r.in.ReadString('\n')
		switch {
		case strings.HasPrefix(line, "y"), strings.HasPrefix(line, "Y"):
			return true
		case strings.HasPrefix(line, "n"), strings.HasPrefix(line, "N"), err != nil:
			return false
		}
	}
}

// killing reports whether the jobs are being cancelled rather than sent
// a signal (SIGKILL counts as cancelling, as in Slurm).
func (p *scancelParams) killing() bool {
	return p.signal == 0 || p.signal == int(syscall.SIGKILL)
}

// verb is the -v line for acting on what ("job") id.
func (p *scancelParams) verb(what, id string) string {
	kind := ""
	if p.batch {
		kind = "batch "
	}
	if p.full {
		kind = "full "
	}
	if p.signal == 0 {
		return "scancel: Terminating " + kind + what + " " + id + "\n"
	}
	return "scancel: Signal " + strconv.Itoa(p.signal) + " to " + kind + what + " " + id + "\n"
}

// pass reports whether j passes every filter given.
func (f *scancelFilters) pass(j *api.Job, nodes []string) bool {
	base := baseState(j.JobState)
	switch {
	case base != job.Pending && base != job.Running && base != job.Suspended,
		f.account != nil && j.Account != *f.account,
		f.name != nil && j.Name != *f.name,
		f.partition != nil && j.Partition != *f.partition,
		f.qos != nil && j.QOS != *f.qos,
		f.reservation != nil && j.Reservation != *f.reservation,
		f.state != "" && base != f.state,
		f.user != nil && j.UserID != f.uid,
		f.nodelist != nil && !intersects(nodes, j.Nodes),
		f.wckey != nil && j.WCKey != *f.wckey:
		return false
	}
	return true
}

// nodeSet expands -w; a value with a "/" names a file of host names.
func (f *scancelFilters) nodeSet() []string {
	if f.nodelist == nil {
		return nil
	}
	if strings.Contains(*f.nodelist, "/") {
		if b, err := os.ReadFile(*f.nodelist); err == nil {
			var names []string
			for _, line := range strings.Split(string(b), "\n") {
				line, _, _ = strings.Cut(line, "#")
				names = append(names, strings.Fields(line)...)
			}
			list := strings.Join(names, ",")
			f.nodelist = &list
		}
	}
	nodes, _ := hostlist.Expand(*f.nodelist)
	return nodes
}

// describe lists the filters given, in Slurm's order, each followed by a
// space.
func (f *scancelFilters) describe() string {
	var b strings.Builder
	add := func(name string, v *string) {
		if v != nil {
			b.WriteString(name + "=" + *v + " ")
		}
	}
	add("account", f.account)
	add("job_name", f.name)
	add("nodelist", f.nodelist)
	add("partition", f.partition)
	add("qos", f.qos)
	add("reservation", f.reservation)
	if f.state != "" {
		b.WriteString("state=" + string(f.state) + " ")
	}
	add("user_name", f.user)
	add("wckey", f.wckey)
	return b.String()
}

// baseState is a state as Slurm's base state counts it: configuring,
// signalling and resizing jobs run; held for requeue they pend.
func baseState(s job.State) job.State {
	switch s {
	case job.Configuring, job.Signaling, job.Resizing, job.Stopped:
		return job.Running
	case job.Requeued, job.RequeueHold, job.RequeueFed, job.ResvDelHold:
		return job.Pending
	}
	return s
}

// slurmErrno is the exit status Slurm's scancel gives for an error: its
// error number, truncated to 8 bits.
func slurmErrno(c api.Code) int {
	n, ok := map[api.Code]int{
		api.CodeCtldConnect:     1800, // the peer's scancel exits 8
		api.CodeAccessDenied:    2002,
		api.CodeInvalidJobID:    2017,
		api.CodeTransitionState: 2020,
		api.CodeAlreadyDone:     2021,
		api.CodeJobPending:      2024,
		api.CodeNotSupported:    2036,
		api.CodeDisabled:        2037,
		api.CodeBatchOnly:       2039,
	}[c]
	if !ok {
		return 1
	}
	return n & 0xff
}
