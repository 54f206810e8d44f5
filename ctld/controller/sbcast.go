package controller

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
)

// sbcastMaxGrant bounds a grant's life for a job without an end time (no
// time limit): the file must be sent by then.
const sbcastMaxGrant = 24 * time.Hour

// handleSbcast is sbcast: for a running job of the caller's (or any job
// for an operator), one grant per node of the job (or of its step) that
// lets the caller write the file there as the job's user. The controller
// never sees the file.
func (c *Controller) handleSbcast(_ context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.SbcastRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if aerr := checkSbcastRequest(&in); aerr != nil {
		return nil, aerr
	}
	out, claims, aerr := c.sbcastTargets(id, &in)
	if aerr != nil {
		return nil, aerr
	}
	signer := auth.NewSigner(c.opts.Key, api.SbcastGrantSender)
	for i := range out.Targets {
		data, err := json.Marshal(claims[i])
		if err != nil {
			return nil, api.Errorf(api.CodeInternal, "encode sbcast grant: %v", err)
		}
		sig, err := signer.SignHeaders(api.SbcastGrantMethod, api.SbcastGrantURI, data)
		if err != nil {
			return nil, api.Errorf(api.CodeInternal, "sign sbcast grant: %v", err)
		}
		out.Targets[i].Grant = api.SbcastGrant{Claims: data, Sig: sig}
	}
	return out, nil
}

// checkSbcastRequest refuses what no node could write.
func checkSbcastRequest(in *api.SbcastRequest) *api.Error {
	switch {
	case in.JobID == 0:
		return api.NewError(api.CodeInvalidJobID)
	case !path.IsAbs(in.Dest) || path.Clean(in.Dest) == "/":
		return api.Errorf(api.CodeBadRequest, "sbcast destination %q is not an absolute file path", in.Dest)
	case in.Size < 0:
		return api.Errorf(api.CodeBadRequest, "sbcast size %d", in.Size)
	}
	return nil
}

// sbcastTargets finds the nodes and their daemons, under the lock, and
// returns the answer without grants and each node's claims.
func (c *Controller) sbcastTargets(id auth.Identity, in *api.SbcastRequest) (*api.SbcastResponse, []api.SbcastClaims, *api.Error) {
	transfer, err := randomHex(16)
	if err != nil {
		return nil, nil, api.Errorf(api.CodeInternal, "sbcast transfer id: %v", err)
	}
	now := c.now()
	c.mu.RLock()
	defer c.mu.RUnlock()
	r := c.jobs[in.JobID]
	if in.HasTask {
		r = c.sbcastArrayTask(in.JobID, in.Task)
	}
	switch {
	case r == nil:
		return nil, nil, api.NewError(api.CodeInvalidJobID)
	case !c.canModify(id, r):
		return nil, nil, api.NewError(api.CodeAccessDenied)
	case r.pending():
		return nil, nil, api.NewError(api.CodeJobPending)
	case !r.running() || r.St.EndState != "" || r.St.State == job.Completing:
		return nil, nil, api.NewError(api.CodeAlreadyDone)
	}
	nodes := make([]string, 0, len(r.St.Alloc))
	for _, a := range r.St.Alloc {
		nodes = append(nodes, a.Node)
	}
	if in.HasStep {
		var aerr *api.Error
		if nodes, aerr = c.sbcastStepNodes(r, in.StepID); aerr != nil {
			return nil, nil, aerr
		}
	}
	expires := now.Add(sbcastMaxGrant)
	if end := time.Unix(sbcastJobEnd(r), 0); end.After(now) && end.Before(expires) {
		expires = end
	}
	out := &api.SbcastResponse{JobID: r.ID, StepID: in.StepID, NodeList: hostlist.Compress(nodes),
		Issued: now.Unix(), Expires: expires.Unix(), Targets: make([]api.SbcastTarget, len(nodes))}
	claims := make([]api.SbcastClaims, len(nodes))
	for i, name := range nodes {
		n := c.nodes[name]
		if n == nil || n.addr == "" || !n.registered || n.notResponding {
			return nil, nil, api.Errorf(api.CodeNodeNotAvail, "node %s does not answer", name)
		}
		out.Targets[i] = api.SbcastTarget{Node: name, Addr: n.addr}
		claims[i] = api.SbcastClaims{Transfer: transfer, JobID: r.ID, Node: name, UID: r.Req.UserID,
			GID: r.Req.GroupID, Groups: r.St.Groups, User: r.Req.UserName, Dest: path.Clean(in.Dest), Size: in.Size,
			Expires: expires.UnixNano()}
	}
	return out, claims, nil
}

// sbcastArrayTask is the live record of task task of array id, or nil.
// The caller holds c.mu.
func (c *Controller) sbcastArrayTask(id, task uint32) *jobRecord {
	for _, m := range c.arrayMembers(id) {
		if r := c.jobs[m]; r != nil && r.St.ArrayTask >= 0 && uint32(r.St.ArrayTask) == task {
			return r
		}
	}
	return nil
}

// sbcastStepNodes are the nodes of a running step of r: its batch step's
// node, or an srun step's. The caller holds c.mu.
func (c *Controller) sbcastStepNodes(r *jobRecord, stepID uint32) ([]string, *api.Error) {
	if stepID == api.SbcastBatchStep {
		if r.St.BatchHost == "" {
			return nil, api.NewError(api.CodeInvalidJobID) // an interactive allocation
		}
		return []string{r.St.BatchHost}, nil
	}
	s := c.findStep(r.ID, stepID)
	if s == nil || !s.running() {
		return nil, api.NewError(api.CodeInvalidJobID)
	}
	nodes := make([]string, 0, len(s.Layout.Nodes))
	for _, sn := range s.Layout.Nodes {
		nodes = append(nodes, sn.Node)
	}
	return nodes, nil
}

// sbcastJobEnd is when the running job must end, as Slurm's EndTime (its
// grant expires then): its start plus its limit and the time it spent
// suspended; 0 without a limit.
func sbcastJobEnd(r *jobRecord) int64 {
	if r.St.End > 0 {
		return r.St.End
	}
	if r.St.Start == 0 || r.St.TimeLimit <= 0 || r.St.TimeLimit == api.UnlimitedSeconds {
		return 0
	}
	return r.St.Start + r.St.TimeLimit + r.St.Suspended
}

func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random: %w", err)
	}
	return hex.EncodeToString(b), nil
}
