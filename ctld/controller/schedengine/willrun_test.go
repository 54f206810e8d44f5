package schedengine

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/ctld/controller"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

func newEngineWithTenants(t *testing.T, tenants string) *Engine {
	t.Helper()
	return newEngineFS(t, fstest.MapFS{"slurm.conf": {Data: []byte(conf)}, "tenants.conf": {Data: []byte(tenants)}})
}

func gpus(n int64) func(*controller.EngineJob) {
	return func(j *controller.EngineJob) {
		j.Req.GRES = []resource.GRES{{Name: "gpu", Count: n}}
		j.Tenant = "lab"
	}
}

// TestTestOnlyIgnoresLimits: as Slurm's will-run test, the estimate of a
// job that only a tenant or user limit stops says when and where it
// would start on the resources: now, on free GPUs, ahead of the jobs the
// limits hold back. A job that waits for resources keeps its answer (a
// later start, on the nodes it reserves).
func TestTestOnlyIgnoresLimits(t *testing.T) {
	type want struct {
		Now   bool
		Nodes []string
	}
	tests := map[string]struct {
		tenants string
		running []int64 // GPUs of jobs started first
		pending []int64 // GPUs of jobs left waiting
		gpus    int64   // GPUs of the job under test
		want    want
	}{
		"a tenant cap (GrpTRES) reached by a running job": {
			tenants: "TenantName=lab GrpTRES=gres/gpu=2\nUserName=u Accounts=lab\n",
			running: []int64{2}, gpus: 2,
			want: want{Now: true, Nodes: []string{"n01"}},
		},
		"a per-user cap (MaxTRESPerUser) reached": {
			tenants: "TenantName=lab MaxTRESPerUser=gres/gpu=2\nUserName=u Accounts=lab\n",
			running: []int64{2}, gpus: 2,
			want: want{Now: true, Nodes: []string{"n01"}},
		},
		"jobs the cap holds back do not take the free node": {
			tenants: "TenantName=lab GrpTRES=gres/gpu=4\nUserName=u Accounts=lab\n",
			running: []int64{2}, pending: []int64{4}, gpus: 4,
			want: want{Now: true, Nodes: []string{"n02"}},
		},
		"no limit: waits for the running job like before": {
			tenants: "TenantName=lab\nUserName=u Accounts=lab\n",
			running: []int64{4, 4}, gpus: 4,
			want: want{Now: false, Nodes: []string{"n01"}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			e := newEngineWithTenants(t, tc.tenants)
			now := time.Unix(2000, 0)
			for _, g := range tc.running {
				if err := e.Submit(ej(e, gpus(g), withLimit(time.Hour))); err != nil {
					t.Fatal(err)
				}
			}
			if res := e.Cycle(now); len(res.Launches) != len(tc.running) {
				t.Fatalf("started %d jobs, want %d: %+v", len(res.Launches), len(tc.running), res.Pending)
			}
			for _, g := range tc.pending {
				if err := e.Submit(ej(e, gpus(g))); err != nil {
					t.Fatal(err)
				}
			}
			est, err := e.Estimate(ej(e, gpus(tc.gpus)), now)
			if err != nil {
				t.Fatal(err)
			}
			if est.Start.IsZero() {
				t.Fatalf("no start: reason %s", est.Reason)
			}
			got := want{Now: est.Start.Equal(now)}
			for _, a := range est.Alloc {
				got.Nodes = append(got.Nodes, a.Node)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("estimate (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTestOnlyLimitsStayForTheCluster: the estimate lifts limits only in
// its own pass; the next real cycle still holds the capped job.
func TestTestOnlyLimitsStayForTheCluster(t *testing.T) {
	e := newEngineWithTenants(t, "TenantName=lab GrpTRES=gres/gpu=2\nUserName=u Accounts=lab\n")
	now := time.Unix(2000, 0)
	if err := e.Submit(ej(e, gpus(2), withLimit(time.Hour))); err != nil {
		t.Fatal(err)
	}
	e.Cycle(now)
	capped := ej(e, gpus(2))
	if err := e.Submit(capped); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Estimate(ej(e, gpus(2)), now); err != nil {
		t.Fatal(err)
	}
	res := e.Cycle(now.Add(time.Second))
	if len(res.Launches) != 0 || len(res.Pending) != 1 || res.Pending[0].Reason != job.Reason("AssocGrpGRES") {
		t.Errorf("after the estimate: launches %+v pending %+v", res.Launches, res.Pending)
	}
}

func withLimit(d time.Duration) func(*controller.EngineJob) {
	return func(j *controller.EngineJob) { j.Limit = d }
}
