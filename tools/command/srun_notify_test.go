package command

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// noticeSteps is fakeSteps with a notice board: notices[i] answers the
// i-th wait (errs[i] instead, when set), once first is closed for the
// first one; a wait past the list blocks until srun or salloc stops
// watching. Each wait's index goes to called, its After to afters.
type noticeSteps struct {
	*fakeSteps
	notices [][]api.Notice
	errs    []error
	first   chan struct{}
	called  chan int

	mu     sync.Mutex
	afters []uint64
}

func newNoticeSteps(t *testing.T, waits []api.Allocation, notices ...[]api.Notice) *noticeSteps {
	return &noticeSteps{fakeSteps: &fakeSteps{fakeController: &fakeController{}, t: t, waits: waits},
		notices: notices, first: make(chan struct{}), called: make(chan int, 64)}
}

func (f *noticeSteps) WaitNotices(ctx context.Context, req *api.NoticeWaitRequest) (*api.NoticeWaitResponse, error) {
	f.mu.Lock()
	i := len(f.afters)
	f.afters = append(f.afters, req.After)
	f.mu.Unlock()
	f.called <- i
	if i == 0 {
		<-f.first
	}
	switch {
	case i < len(f.errs) && f.errs[i] != nil:
		return nil, f.errs[i]
	case i >= len(f.notices):
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return &api.NoticeWaitResponse{Notices: f.notices[i]}, nil
}

// awaitCall waits for the n-th wait (from 0): the answers before it were
// shown.
func (f *noticeSteps) awaitCall(n int) {
	for i := range f.called {
		if i >= n {
			return
		}
	}
}

func (f *noticeSteps) waitAfters() []uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]uint64(nil), f.afters...)
}

// readyAlloc is job 7 running on n01.
var readyAlloc = api.Allocation{JobID: 7, State: job.Running, Ready: true, Name: "sh", Partition: "normal",
	ClusterName: "c", NodeList: "n01", Nodes: []api.NodeAllocation{{Node: "n01", CPUs: 1}}, TasksPerNode: []int{1}}

// runNoticeSalloc runs salloc on f; its command ends once the watch made
// wait number waits.
func runNoticeSalloc(t *testing.T, f *noticeSteps, waits int) (int, string) {
	t.Helper()
	te := newTestEnv(f.fakeController, 1_800_000_000)
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	h := stepHooks{
		notify: func(chan<- os.Signal) func() { return func() {} },
		runLocal: func([]string, []string, string, <-chan os.Signal) job.ExitCode {
			close(f.first) // "Granted" is out: the first notices may come
			f.awaitCall(waits)
			return job.ExitCode{}
		},
	}
	code := runSalloc(context.Background(), te.Env, []string{"-N1", "sh"}, h)
	return code, te.stderr.String()
}

// TestSallocShowsNotices: salloc prints each notice of its job once, as
// "salloc: MSG" (the peer's salloc after scontrol notify), each wait
// naming the last one shown; one answered again is not shown again.
func TestSallocShowsNotices(t *testing.T) {
	f := newNoticeSteps(t, []api.Allocation{readyAlloc},
		[]api.Notice{{Seq: 1, Message: "hello salloc"}, {Seq: 2, Message: "two words"}},
		[]api.Notice{{Seq: 2, Message: "two words"}, {Seq: 3, Message: "third"}})
	code, stderr := runNoticeSalloc(t, f, 2)
	want := "salloc: Granted job allocation 7\nsalloc: hello salloc\nsalloc: two words\nsalloc: third\n" +
		"salloc: Relinquishing job allocation 7\n"
	if diff := cmp.Diff(want, stderr); code != 0 || diff != "" {
		t.Errorf("exit %d, stderr (-want +got):\n%s", code, diff)
	}
	if diff := cmp.Diff([]uint64{0, 2, 3}, f.waitAfters()); diff != "" {
		t.Errorf("waits' After (-want +got):\n%s", diff)
	}
}

// TestNoticeWatchErrors: the watch gives up at the controller's refusal
// and retries, after a pause, when it cannot reach the controller.
func TestNoticeWatchErrors(t *testing.T) {
	refused := newNoticeSteps(t, []api.Allocation{readyAlloc})
	refused.errs = []error{api.NewError(api.CodeNotFound)}
	close(refused.first)
	watch := watchNotices(context.Background(), refused, newOutput(newTestEnv(refused.fakeController, 0).Env, "srun"), "srun", 7)
	<-watch.done // gave up alone
	if got := refused.waitAfters(); len(got) != 1 {
		t.Errorf("waits after a refusal: %v, want one", got)
	}

	lost := newNoticeSteps(t, []api.Allocation{readyAlloc}, nil, []api.Notice{{Seq: 1, Message: "back"}})
	lost.errs = []error{errors.New("connection refused")}
	code, stderr := runNoticeSalloc(t, lost, 2)
	want := "salloc: Granted job allocation 7\nsalloc: back\nsalloc: Relinquishing job allocation 7\n"
	if diff := cmp.Diff(want, stderr); code != 0 || diff != "" {
		t.Errorf("exit %d, stderr (-want +got):\n%s", code, diff)
	}
}

// TestSrunShowsNoticesWhilePending: srun that made its allocation shows
// a notice that comes while the job waits, between the peer's lines; an
// srun inside a job does not wait for notices (the message goes to
// whoever holds the job).
func TestSrunShowsNoticesWhilePending(t *testing.T) {
	one := api.StepLayout{NodeList: "n01", Tasks: 1, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0}}}}
	f := newNoticeSteps(t, []api.Allocation{{JobID: 7, State: job.Pending}, readyAlloc},
		[]api.Notice{{Seq: 1, Message: "hello pending srun"}})
	f.layout = one
	f.script = []func(n *fakeNode){func(n *fakeNode) {
		n.exit(api.StepIOExit{Tasks: []int{0}})
		n.done()
	}}
	te := newTestEnv(f.fakeController, 1_800_000_000)
	te.Dial = func(context.Context) (Controller, error) { return &pendingGate{noticeSteps: f}, nil }
	h := stepHooks{notify: func(chan<- os.Signal) func() { return func() {} },
		ioHost: func() string { return "127.0.0.1" }, stdinIsNull: func() bool { return true }}
	code := runSrun(context.Background(), te.Env, []string{"-N1", "true"}, h)
	f.wg.Wait()
	want := "srun: job 7 queued and waiting for resources\nsrun: hello pending srun\nsrun: job 7 has been allocated resources\n"
	if diff := cmp.Diff(want, te.stderr.String()); code != 0 || diff != "" {
		t.Errorf("exit %d, stderr (-want +got):\n%s", code, diff)
	}

	inside := newNoticeSteps(t, nil)
	inside.layout, inside.script = one, f.script
	te = newTestEnv(inside.fakeController, 1_800_000_000)
	te.Environ = append(te.Environ, insideJobEnv...)
	te.Dial = func(context.Context) (Controller, error) { return inside, nil }
	if code := runSrun(context.Background(), te.Env, []string{"true"}, h); code != 0 {
		t.Errorf("srun inside a job: exit %d, stderr %s", code, te.stderr)
	}
	inside.wg.Wait()
	if got := inside.waitAfters(); len(got) != 0 {
		t.Errorf("srun inside a job waited for notices: %v", got)
	}
}

// pendingGate lets the first notice out once srun said the job is
// queued (its second allocation wait) and answers that wait once the
// notice was shown (the watch's next wait).
type pendingGate struct {
	*noticeSteps
	n int
}

func (g *pendingGate) WaitAllocation(ctx context.Context, req *api.AllocationWaitRequest) (*api.Allocation, error) {
	if g.n++; g.n == 2 {
		close(g.first)
		g.awaitCall(1)
	}
	return g.noticeSteps.WaitAllocation(ctx, req)
}
