package controller

import (
	"fmt"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestUpdateJobLayoutKeys: SiteFactor=, ResetAccrueTime, ReqSockets=,
// ReqCores=, ReqThreads=, CoreSpec=, Clusters= and the TresPer*= keys
// answer a held pending job as the peer's slurmctld does (its texts:
// "Access/permission denied", "Unspecified error", "Invalid generic
// resource (gres) specification", "Invalid Trackable RESource (TRES)
// specification"), for its owner and for root.
func TestUpdateJobLayoutKeys(t *testing.T) {
	h := newHarness(t)
	held := func(mods ...func(*job.Request)) string {
		return fmt.Sprint(h.mustSubmit(alice, simpleJob(append([]func(*job.Request){func(r *job.Request) { r.Hold = true }}, mods...)...)))
	}
	withGPUs := func(r *job.Request) { r.GPUs = gpus(2) }
	perNode := func(r *job.Request) { r.GPUsPerNode = gpus(2) }
	twoNodes := func(r *job.Request) { r.MinNodes, r.NodesSet = 2, true }
	fourTasks := func(r *job.Request) { r.GPUs, r.NTasks = gpus(4), 4 }
	oneSocket := func(r *job.Request) { r.SocketsPerNode = 1 }
	cases := map[string]struct {
		uid  uint32
		mods []func(*job.Request)
		u    api.JobUpdate
		want api.Code
	}{
		"the owner's SiteFactor":               {alice, nil, api.JobUpdate{SiteFactor: ptr(int64(5))}, api.CodeAccessDenied},
		"root's SiteFactor":                    {0, nil, api.JobUpdate{SiteFactor: ptr(int64(5))}, ""},
		"the owner's ResetAccrueTime":          {alice, nil, api.JobUpdate{ResetAccrueTime: true}, ""},
		"the owner's ReqSockets":               {alice, nil, api.JobUpdate{SocketsPerNode: ptr(1)}, ""},
		"the owner's CoreSpec":                 {alice, nil, api.JobUpdate{CoreSpec: ptr(1)}, api.CodeAccessDenied},
		"root's CoreSpec, none":                {0, nil, api.JobUpdate{CoreSpec: ptr(-1)}, api.CodeAccessDenied},
		"clusters":                             {0, nil, api.JobUpdate{Clusters: ptr("")}, api.CodeError},
		"GPUs for a job":                       {alice, nil, api.JobUpdate{TRESPerJob: ptr("gres:gpu:1")}, ""},
		"GPUs without gres:":                   {alice, nil, api.JobUpdate{TRESPerJob: ptr("gpu:4")}, ""},
		"a GRES no node has":                   {0, nil, api.JobUpdate{TRESPerJob: ptr("gres:foo:1")}, api.CodeInvalidGRES},
		"fewer GPUs than nodes":                {0, []func(*job.Request){twoNodes}, api.JobUpdate{TRESPerJob: ptr("gres:gpu:1")}, api.CodeInvalidGRES},
		"a GPU a node":                         {0, []func(*job.Request){twoNodes}, api.JobUpdate{TRESPerJob: ptr("gres:gpu:2")}, ""},
		"GPUs a job beside GPUs a node":        {0, []func(*job.Request){perNode}, api.JobUpdate{TRESPerJob: ptr("gres:gpu:4")}, api.CodeInvalidGRES},
		"GPUs a task":                          {alice, nil, api.JobUpdate{TRESPerTask: ptr("gres:gpu:1")}, ""},
		"GPUs a task without gres:":            {0, nil, api.JobUpdate{TRESPerTask: ptr("gpu:2")}, api.CodeInvalidTRES},
		"GPUs a task that miss --gpus":         {0, []func(*job.Request){withGPUs}, api.JobUpdate{TRESPerTask: ptr("gres:gpu:1")}, api.CodeInvalidGRES},
		"GPUs a task beside -G4 -n4":           {0, []func(*job.Request){fourTasks}, api.JobUpdate{TRESPerTask: ptr("gres:gpu:1")}, ""},
		"GPUs a socket":                        {0, nil, api.JobUpdate{TRESPerSocket: ptr("gres:gpu:1")}, api.CodeInvalidGRES},
		"GPUs a socket with -B 1":              {0, []func(*job.Request){oneSocket}, api.JobUpdate{TRESPerSocket: ptr("gres:gpu:1")}, api.CodeInvalidGRES},
		"memory per GPU without GPUs":          {alice, nil, api.JobUpdate{MemPerTRES: ptr("gpu:100")}, api.CodeInvalidTRES},
		"memory per GPU with GPUs":             {0, []func(*job.Request){withGPUs}, api.JobUpdate{MemPerTRES: ptr("gpu:100")}, api.CodeInvalidGRES},
		"CPUs per GPU without GPUs":            {alice, nil, api.JobUpdate{CPUsPerTRES: ptr("gpu:2")}, api.CodeInvalidTRES},
		"CPUs per GPU with GPUs":               {0, []func(*job.Request){withGPUs}, api.JobUpdate{CPUsPerTRES: ptr("gpu:2")}, ""},
		"CPUs per GPU a node with GPUs a node": {alice, []func(*job.Request){perNode}, api.JobUpdate{CPUsPerTRES: ptr("gres/gpu:3")}, ""},
	}
	for name, tc := range cases {
		if got := updateCode(t, h, tc.uid, held(tc.mods...), tc.u); got != tc.want {
			t.Errorf("%s: answered %q, want %q", name, got, tc.want)
		}
	}
}

// TestUpdateJobLayoutShown: what the updates leave shows as the peer's
// scontrol show job shows it (Socks/Node, ReqB:S:C:T, TresPerJob,
// TresPerTask, CpusPerTres) and reaches the scheduler: the site factor
// and the new GPUs.
func TestUpdateJobLayoutShown(t *testing.T) {
	h := newHarness(t)
	raw := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true; r.NTasks = 4 }))
	id := fmt.Sprint(raw)
	for _, u := range []api.JobUpdate{
		{SocketsPerNode: ptr(1), CoresPerSocket: ptr(3), ThreadsPerCore: ptr(2)},
		{TRESPerJob: ptr("gres:gpu:4")},
		{TRESPerTask: ptr("gres:gpu:1")},
		{CPUsPerTRES: ptr("gpu:2")},
		{SiteFactor: ptr(int64(500))},
	} {
		if got := updateCode(t, h, 0, id, u); got != "" {
			t.Fatalf("%+v: %q", u, got)
		}
	}
	j := h.job(id)
	got := fmt.Sprintf("%d:%d:%d %s %s %d/%v", j.SocketsPerNode, j.CoresPerSocket, j.ThreadsPerCore,
		j.TRESPerJob, j.TRESPerTask, j.CPUsPerGPU, j.CPUsPerGPUDefault)
	if want := "1:3:2 gres:gpu:4 gres:gpu:1 2/true"; got != want {
		t.Errorf("shown %q, want %q", got, want)
	}
	h.c.mu.Lock()
	ej := h.c.engineJob(h.c.jobs[raw])
	h.c.mu.Unlock()
	if ej.SiteFactor != 500 || len(ej.Req.GPUs) != 1 || ej.Req.GPUs[0].Count != 4 {
		t.Errorf("the scheduler reads site factor %d and GPUs %v, want 500 and gpu:4", ej.SiteFactor, ej.Req.GPUs)
	}
}

// TestUpdateRunningJobLayoutKeys: on a running job the request keys are
// "Job is no longer pending execution", Clusters= still "Unspecified
// error", and root's SiteFactor= moves the job's priority, as on the peer.
func TestUpdateRunningJobLayoutKeys(t *testing.T) {
	h, _, raw := runningOnQuietNode(t)
	id := fmt.Sprint(raw)
	before := h.job(id).Priority
	cases := map[string]struct {
		u    api.JobUpdate
		want api.Code
	}{
		"ResetAccrueTime": {api.JobUpdate{ResetAccrueTime: true}, api.CodeJobNotPending},
		"ReqSockets":      {api.JobUpdate{SocketsPerNode: ptr(1)}, api.CodeJobNotPending},
		"ReqThreads":      {api.JobUpdate{ThreadsPerCore: ptr(1)}, api.CodeJobNotPending},
		"TresPerJob":      {api.JobUpdate{TRESPerJob: ptr("gres:gpu:1")}, api.CodeJobNotPending},
		"CpusPerTres":     {api.JobUpdate{CPUsPerTRES: ptr("gpu:2")}, api.CodeJobNotPending},
		"CoreSpec":        {api.JobUpdate{CoreSpec: ptr(1)}, api.CodeJobNotPending},
		"Clusters":        {api.JobUpdate{Clusters: ptr("x")}, api.CodeError},
		"SiteFactor":      {api.JobUpdate{SiteFactor: ptr(int64(5))}, ""},
	}
	for name, tc := range cases {
		if got := updateCode(t, h, 0, id, tc.u); got != tc.want {
			t.Errorf("%s: answered %q, want %q", name, got, tc.want)
		}
	}
	if after := h.job(id).Priority; before > 0 && after != before+5 {
		t.Errorf("priority %d after SiteFactor=5, want %d", after, before+5)
	}
}
