package command

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
)

// fakeController serves recorded records as loam-ctld would. Job tables
// go through api.TableWriter and api.DecodeJobTable, so a column that
// forgets to ask for a field prints an empty value and fails its test.
type fakeController struct {
	mu         sync.Mutex
	now        int64
	jobs       []api.Job
	nodes      []api.Node
	partitions []api.Partition
	config     api.ConfigResponse
	host       string
	acct       []api.AcctJob

	// Requests received, for tests of what commands send.
	submits  []api.SubmitRequest
	cancels  []api.CancelRequest
	holds    []api.HoldRequest
	releases []api.ReleaseRequest
	updates  []api.UpdateRequest
	requeues []api.RequeueRequest
	nodeUpds []api.NodeUpdateRequest
	queries  []api.JobQuery
	acctQs   []api.AcctQuery

	// Answers to give.
	submitResp *api.SubmitResponse
	err        error                              // returned by every call when set
	results    func(ids []string) []api.JobResult // per-job outcomes; nil: all succeed
}

var _ Controller = (*fakeController)(nil)

func (f *fakeController) Ping(context.Context) (*api.PingResponse, error) {
	if f.err != nil {
		return nil, f.err
	}
	return &api.PingResponse{Daemon: "loam-ctld", Host: orDefault(f.host, "ctl"), Primary: true, Now: f.now}, nil
}

func (f *fakeController) Submit(_ context.Context, req *api.SubmitRequest) (*api.SubmitResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.submits = append(f.submits, *req)
	if f.err != nil {
		return nil, f.err
	}
	if f.submitResp != nil {
		return f.submitResp, nil
	}
	return &api.SubmitResponse{JobID: 100}, nil
}

// selected applies a query's job ids and states, as the controller does.
func (f *fakeController) selected(q *api.JobQuery) ([]*api.Job, []string) {
	var out []*api.Job
	found := map[string]bool{}
	for i := range f.jobs {
		j := &f.jobs[i]
		if len(q.JobIDs) > 0 {
			ok := false
			for _, id := range q.JobIDs {
				n, _ := strconv.ParseUint(id, 10, 32)
				if uint32(n) == j.JobID || uint32(n) == j.ArrayJobID {
					ok, found[id] = true, true
				}
			}
			if !ok {
				continue
			}
		}
		if len(q.Names) > 0 && !slices.Contains(q.Names, j.Name) {
			continue
		}
		if len(q.States) > 0 && !slices.Contains(q.States, string(shownJobState(j))) { // the controller's queryState
			continue
		}
		if len(q.Users) > 0 && !slices.Contains(q.Users, strconv.FormatUint(uint64(j.UserID), 10)) &&
			!slices.Contains(q.Users, j.UserName) {
			continue
		}
		out = append(out, j)
	}
	var missing []string
	for _, id := range q.JobIDs {
		if !found[id] {
			missing = append(missing, id)
		}
	}
	return out, missing
}

func (f *fakeController) Jobs(_ context.Context, q *api.JobQuery) (*api.JobsResponse, error) {
	f.queries = append(f.queries, *q)
	if f.err != nil {
		return nil, f.err
	}
	sel, missing := f.selected(q)
	resp := &api.JobsResponse{Now: f.now, Missing: missing}
	for _, j := range sel {
		resp.Jobs = append(resp.Jobs, *j)
	}
	return resp, nil
}

func (f *fakeController) JobTable(_ context.Context, q *api.JobQuery) (*api.JobTable, error) {
	f.queries = append(f.queries, *q)
	if f.err != nil {
		return nil, f.err
	}
	w, err := api.NewTableWriter(q.Fields, f.now)
	if err != nil {
		return nil, api.Errorf(api.CodeBadRequest, "%v", err)
	}
	sel, missing := f.selected(q)
	for _, j := range sel {
		w.Add(j)
	}
	return api.DecodeJobTable(w.Finish(missing))
}

func (f *fakeController) answer(ids []string) (*api.JobResults, error) {
	if f.err != nil {
		return nil, f.err
	}
	if f.results != nil {
		return &api.JobResults{Results: f.results(ids)}, nil
	}
	// By default every known job succeeds and unknown ids fail as the
	// controller answers them.
	var r api.JobResults
	for _, id := range ids {
		res := api.JobResult{JobID: id}
		ref, err := api.ParseJobRef(id)
		if err != nil || !knownJob(f.jobs, ref.JobID) {
			res.Error = api.NewError(api.CodeInvalidJobID)
		}
		r.Results = append(r.Results, res)
	}
	return &r, nil
}

func (f *fakeController) Cancel(_ context.Context, req *api.CancelRequest) (*api.JobResults, error) {
	f.cancels = append(f.cancels, *req)
	return f.answer(req.Filter.JobIDs)
}

func (f *fakeController) Hold(_ context.Context, req *api.HoldRequest) (*api.JobResults, error) {
	f.holds = append(f.holds, *req)
	return f.answer(req.JobIDs)
}

func (f *fakeController) Release(_ context.Context, req *api.ReleaseRequest) (*api.JobResults, error) {
	f.releases = append(f.releases, *req)
	return f.answer(req.JobIDs)
}

func (f *fakeController) Update(_ context.Context, req *api.UpdateRequest) (*api.JobResults, error) {
	f.updates = append(f.updates, *req)
	return f.answer(req.JobIDs)
}

func (f *fakeController) Requeue(_ context.Context, req *api.RequeueRequest) (*api.JobResults, error) {
	f.requeues = append(f.requeues, *req)
	return f.answer(req.JobIDs)
}

func (f *fakeController) Nodes(_ context.Context, q *api.NodeQuery) (*api.NodesResponse, error) {
	if f.err != nil {
		return nil, f.err
	}
	resp := &api.NodesResponse{Now: f.now}
	want := map[string]bool{}
	for _, l := range q.Nodes {
		names, _ := hostlist.Expand(l)
		for _, n := range names {
			want[n] = true
		}
	}
	for _, n := range f.nodes {
		if len(want) == 0 || want[n.Name] {
			resp.Nodes = append(resp.Nodes, n)
			delete(want, n.Name)
		}
	}
	for n := range want {
		resp.Missing = append(resp.Missing, n)
	}
	slices.Sort(resp.Missing)
	return resp, nil
}

func (f *fakeController) UpdateNodes(_ context.Context, req *api.NodeUpdateRequest) (*api.NodeUpdateResponse, error) {
	f.nodeUpds = append(f.nodeUpds, *req)
	if f.err != nil {
		return nil, f.err
	}
	return &api.NodeUpdateResponse{Nodes: []string{req.Nodes}}, nil
}

func (f *fakeController) Partitions(context.Context) (*api.PartitionsResponse, error) {
	if f.err != nil {
		return nil, f.err
	}
	return &api.PartitionsResponse{Now: f.now, Partitions: f.partitions}, nil
}

func (f *fakeController) Config(context.Context) (*api.ConfigResponse, error) {
	if f.err != nil {
		return nil, f.err
	}
	c := f.config
	return &c, nil
}

func (f *fakeController) Reconfigure(context.Context) (*api.ReconfigureResponse, error) {
	if f.err != nil {
		return nil, f.err
	}
	return &api.ReconfigureResponse{}, nil
}

func (f *fakeController) Accounting(_ context.Context, q *api.AcctQuery) (*api.AcctResponse, error) {
	f.acctQs = append(f.acctQs, *q)
	if f.err != nil {
		return nil, f.err
	}
	return &api.AcctResponse{Now: f.now, Jobs: f.acct}, nil
}

// fakeUsers knows root (0) and alice (1000, group users 100).
type fakeUsers struct{}

func (fakeUsers) UID(name string) (uint32, bool) {
	switch name {
	case "root", "0":
		return 0, true
	case "alice", "1000":
		return 1000, true
	}
	return 0, false
}

func (fakeUsers) Name(uid uint32) string {
	switch uid {
	case 0:
		return "root"
	case 1000:
		return "alice"
	}
	return strconv.FormatUint(uint64(uid), 10)
}

func (fakeUsers) Group(gid uint32) string {
	switch gid {
	case 0:
		return "root"
	case 100:
		return "users"
	}
	return strconv.FormatUint(uint64(gid), 10)
}

// testEnv is an Env at time now (UTC) talking to f, with captured output.
type testEnv struct {
	*Env
	stdout, stderr *bytes.Buffer
	slept          []time.Duration
	files          map[string][]byte
}

func newTestEnv(f *fakeController, now int64) *testEnv {
	te := &testEnv{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, files: map[string][]byte{}}
	files := te.files
	te.Env = &Env{
		Stdin: strings.NewReader(""), Stdout: te.stdout, Stderr: te.stderr,
		Environ: []string{"PATH=/usr/bin:/bin", "HOME=/root", "USER=root"},
		Cwd:     "/home/alice/work", Host: "login1", Umask: 0o022,
		Now:   func() time.Time { return time.Unix(now, 0).UTC() },
		Users: fakeUsers{},
		Sleep: func(ctx context.Context, d time.Duration) error {
			te.slept = append(te.slept, d)
			return ctx.Err()
		},
		ReadFile: func(name string) ([]byte, error) {
			if b, ok := files[name]; ok {
				return b, nil
			}
			return nil, errNotExist(name)
		},
		Exists: func(name string) bool { _, ok := files[name]; return ok },
		Dial:   func(context.Context) (Controller, error) { return f, nil },
	}
	return te
}

type notExistError string

func (e notExistError) Error() string { return "open " + string(e) + ": no such file or directory" }

func errNotExist(name string) error { return notExistError(name) }
