package controller

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// updateSiteKeys applies the keys that act on a job's place in the queue
// rather than on its request, with the peer's answers: Clusters= is an
// "Unspecified error" outside a federation; CoreSpec= and ThreadSpec= are
// for pending jobs and then refused to everyone, as slurmctld refuses
// them without AllowSpecResourcesUsage (which Loam does not have);
// SiteFactor= is operators' and applies to pending and running jobs;
// ResetAccrueTime makes a pending job accrue from now (a held one, which
// accrues nothing, is left as it is).
func (c *Controller) updateSiteKeys(r *jobRecord, st *jobStatus, u *api.JobUpdate, operator bool) *api.Error {
	if u.Clusters != nil {
		return api.Errorf(api.CodeError, "Clusters=%s: no federation", *u.Clusters)
	}
	if u.CoreSpec != nil {
		if !r.pending() {
			return api.NewError(api.CodeJobNotPending)
		}
		return api.Errorf(api.CodeAccessDenied, "AllowSpecResourcesUsage is not set")
	}
	if u.ResetAccrueTime {
		if !r.pending() {
			return api.NewError(api.CodeJobNotPending)
		}
		if st.Hold == NotHeld && accrueTime(r) != 0 {
			st.Accrue = c.now().Unix()
		}
	}
	if u.SiteFactor != nil {
		if !operator {
			return api.Errorf(api.CodeAccessDenied, "only operators may set SiteFactor")
		}
		if r.running() && st.Priority > 0 {
			// A running job is not recomputed: its priority moves by the
			// change, as slurmctld's set_job_prio would move it.
			st.Priority = max(st.Priority-st.SiteFactor+*u.SiteFactor, 1)
		}
		st.SiteFactor = *u.SiteFactor
	}
	return nil
}

// layoutTouched reports whether u changes a request key of this file,
// which, as in Slurm, only a pending job takes.
func layoutTouched(u *api.JobUpdate) bool {
	return u.SocketsPerNode != nil || u.CoresPerSocket != nil || u.ThreadsPerCore != nil ||
		u.TRESPerJob != nil || u.TRESPerTask != nil || u.TRESPerSocket != nil ||
		u.MemPerTRES != nil || u.CPUsPerTRES != nil
}

// updateLayout applies a pending job's new -B counts (ReqSockets=,
// ReqCores=, ReqThreads=) and GPU requests (TresPerJob= as --gpus,
// TresPerTask= as --gpus-per-task, TresPerSocket= as --gpus-per-socket,
// CpusPerTres= as --cpus-per-gpu), then checks the GPU counts against
// each other and the job's nodes and tasks as slurmctld re-validates
// them, with its answers.
func updateLayout(q *job.Request, u *api.JobUpdate) *api.Error {
	setCount := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	setCount(&q.SocketsPerNode, u.SocketsPerNode)
	setCount(&q.CoresPerSocket, u.CoresPerSocket)
	setCount(&q.ThreadsPerCore, u.ThreadsPerCore)
	if err := updateGPUTRES(q, u); err != nil {
		return err
	}
	if err := updatePerTRES(q, u); err != nil {
		return err
	}
	if !layoutTouched(u) {
		return nil
	}
	return checkGPUCounts(q)
}

// updateGPUTRES applies TresPerJob=, TresPerTask= and TresPerSocket=.
// As on the peer, TresPerTask's items need their "gres:" (else "Invalid
// Trackable RESource"), TresPerJob's need not; a GRES other than gpu, or
// one that does not read, is an invalid gres specification, and so is
// any TresPerSocket= but an empty one; an empty value clears the request.
func updateGPUTRES(q *job.Request, u *api.JobUpdate) *api.Error {
	if u.TRESPerJob != nil {
		g, err := updatedGPUs(*u.TRESPerJob, false)
		if err != nil {
			return err
		}
		q.GPUs, q.GPUsFromTasks = g, false
	}
	if u.TRESPerTask != nil {
		g, err := updatedGPUs(*u.TRESPerTask, true)
		if err != nil {
			return err
		}
		q.GPUsPerTask = g
	}
	if u.TRESPerSocket != nil {
		// The peer refuses every GPU count a socket, -B given or not.
		if *u.TRESPerSocket != "" {
			return api.Errorf(api.CodeInvalidGRES, "TresPerSocket=%s", *u.TRESPerSocket)
		}
		q.GPUsPerSocket = ""
	}
	return nil
}

// updatedGPUs reads a TresPer*= value: "gres:gpu[:type]:N" items, "" for none.
func updatedGPUs(v string, needPrefix bool) ([]resource.GRES, *api.Error) {
	if v == "" {
		return nil, nil
	}
	for _, item := range strings.Split(v, ",") {
		if needPrefix && !strings.HasPrefix(item, "gres:") {
			return nil, api.Errorf(api.CodeInvalidTRES, "%s", v)
		}
	}
	g, err := resource.ParseGRES(v)
	if err != nil {
		return nil, api.Errorf(api.CodeInvalidGRES, "%v", err)
	}
	for _, x := range g {
		if x.Name != "gpu" {
			return nil, api.Errorf(api.CodeInvalidGRES, "%s: only gpu is a TRES per job or task", v)
		}
	}
	return g, nil
}

// updatePerTRES applies CpusPerTres= and MemPerTres=. Both need a job
// with GPUs ("Invalid Trackable RESource" otherwise). CpusPerTres=gpu:N
// (or gres/gpu:N, gres:gpu:N) is --cpus-per-gpu; the peer refuses every
// MemPerTres= but an empty one (which clears --mem-per-gpu) with an
// invalid gres specification.
func updatePerTRES(q *job.Request, u *api.JobUpdate) *api.Error {
	if u.CPUsPerTRES == nil && u.MemPerTRES == nil {
		return nil
	}
	gpus := resource.GPUCount(q.GPUs)+resource.GPUCount(q.GPUsPerTask)+q.NodeGPUs() > 0 || q.GPUsPerSocket != ""
	if u.CPUsPerTRES != nil {
		if !gpus {
			return api.Errorf(api.CodeInvalidTRES, "CpusPerTres=%s without GPUs", *u.CPUsPerTRES)
		}
		n, ok := cpusPerGPU(*u.CPUsPerTRES)
		if !ok {
			return api.Errorf(api.CodeInvalidTRES, "CpusPerTres=%s", *u.CPUsPerTRES)
		}
		// The flag makes show job print "gpu:N", as the peer prints
		// the value it was given.
		q.CPUsPerGPU, q.CPUsPerGPUDefault = n, strings.HasPrefix(*u.CPUsPerTRES, "gpu:")
	}
	if u.MemPerTRES != nil {
		switch {
		case !gpus:
			return api.Errorf(api.CodeInvalidTRES, "MemPerTres=%s without GPUs", *u.MemPerTRES)
		case *u.MemPerTRES != "":
			return api.Errorf(api.CodeInvalidGRES, "MemPerTres=%s", *u.MemPerTRES)
		}
		q.MemPerGPU = nil
	}
	return nil
}

// cpusPerGPU reads CpusPerTres=: "gpu:N", "gres/gpu:N" or "gres:gpu:N";
// "" is none.
func cpusPerGPU(v string) (int, bool) {
	if v == "" {
		return 0, true
	}
	for _, p := range []string{"gres/gpu:", "gres:gpu:", "gpu:"} {
		if rest, ok := strings.CutPrefix(v, p); ok {
			n, err := strconv.Atoi(rest)
			return n, err == nil && n >= 0
		}
	}
	return 0, false
}

// checkGPUCounts re-validates the job's GPU counts as slurmctld does after
// an update: a job without -n has one task, except that GPUs a task
// beside GPUs a job need -n (the peer takes TresPerTask=gres:gpu:1 on a
// plain job and on a --gpus=4 -n4 one, not on a --gpus=1 one); GPUs a
// job and a node together need a node maximum (-N): the peer refuses
// TresPerJob=gres:gpu:4 on a --gpus-per-node=2 job.
func checkGPUCounts(q *job.Request) *api.Error {
	perJob := resource.GPUCount(q.GPUs)
	if q.NTasks == 0 && perJob > 0 && resource.GPUCount(q.GPUsPerTask) > 0 {
		return api.Errorf(api.CodeInvalidGRES, "GPUs a task and a job without -n")
	}
	v := *q
	v.NTasks = max(v.NTasks, 1)
	if err := v.ValidateClient(); err != nil {
		return api.Errorf(api.CodeInvalidGRES, "%v", err)
	}
	if !gpusSplit(q) {
		return api.NewError(api.CodeInvalidGRES)
	}
	return nil
}

// gpusSplit reports whether a job's GPUs a job and GPUs a node agree, as
// slurmctld re-checks them after an update: the GPUs a job must be a
// multiple of the GPUs a node, on a node count within -N's range, and
// without a node maximum (-N) there is none. The peer takes Gres=gpu:2
// on a -N2 -G4 job and refuses gpu:1, gpu:3 and, on a -G4 -n4 job, any.
func gpusSplit(q *job.Request) bool {
	perJob, perNode := resource.GPUCount(q.GPUs), q.NodeGPUs()
	if perJob == 0 || perNode == 0 {
		return true
	}
	n := perJob / perNode
	return perJob%perNode == 0 && q.MaxNodes > 0 && n >= max(q.MinNodes, 1) && n <= q.MaxNodes
}
