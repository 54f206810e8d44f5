package web

import (
	"fmt"
	"math"
	"net/http"
	"time"
)

var now0 = time.Date(2026, 3, 8, 12, 0, 0, 0, time.UTC)

// fakeSource serves fixed data; peer marks requests as coming over the
// Unix socket as that user.
type fakeSource struct {
	peer  *Viewer
	admin map[uint32]bool
}

func (f *fakeSource) Now() time.Time      { return now0 }
func (f *fakeSource) ClusterName() string { return "testc" }
func (f *fakeSource) PeerViewer(r *http.Request) (Viewer, bool) {
	if f.peer != nil {
		return *f.peer, true
	}
	return Viewer{}, false
}
func (f *fakeSource) ViewerFor(uid uint32, user string) Viewer {
	return Viewer{UID: uid, User: user, Admin: f.admin[uid]}
}

func (f *fakeSource) Overview(v Viewer) Overview {
	return Overview{GPUs: Usage{Total: 64, Alloc: 40, Idle: 16, Down: 8}, Nodes: NodeCounts{Total: 8, Busy: 6, Idle: 1, Down: 1},
		Fragmentation: 0.25, RunRatio: 0.31,
		Partitions: []PartitionUsage{{Name: "normal", Pending: 41, Running: 12, GPUs: 64, GPUsUsed: 40, MeanWait: 2 * time.Hour}},
		Tenants:    []TenantUsage{{Name: "research", Guarantee: 32, Held: 30, Owned: 28, Borrowed: 2, Lent: 0}},
		Mine:       []QueueRow{{JobID: "17", Name: "train<x>", Partition: "normal", Position: 3, Of: 41, EstStart: now0.Add(2 * time.Hour), Reason: "Priority"}}}
}

func (f *fakeSource) Queue(v Viewer, q QueueFilter) QueueView {
	rows := []QueueRow{{JobID: "17", Name: "train", User: "alice", Tenant: "research", Partition: "normal", Position: 1, Of: 2, GPUs: 8,
		EstStart: now0.Add(90 * time.Minute), Planned: now0.Add(5 * time.Hour), Reason: "Resources"}}
	return QueueView{Filter: q, Names: []string{"normal", "batch"}, OnlyOwn: !v.Admin,
		Partitions: []QueuePartition{{Name: "normal", Pending: 2, Rows: rows, More: 1}}}
}

func (f *fakeSource) Quotas(v Viewer, span time.Duration) QuotaView {
	cols := []time.Time{now0.Add(-2 * time.Hour), now0.Add(-time.Hour)}
	return QuotaView{Span: span, Resolution: "hour", Tenants: []string{"research", "prod"}, Cols: cols,
		Util: [][]float64{{0.5, 1.4}, {math.NaN(), 0}}}
}

func (f *fakeSource) Waits(v Viewer, span time.Duration) WaitView {
	return WaitView{Span: span, Queues: []WaitQueue{{Name: "normal", Started: 10, Mean: time.Hour,
		Buckets: []Count{{"<1m", 4}, {"1-5m", 6}}, Daily: []Point{{now0.Add(-24 * time.Hour), 3000}, {now0, 3600}}}}}
}

func (f *fakeSource) Preemptions(v Viewer, span time.Duration) PreemptView {
	return PreemptView{Span: span, Tenants: []TenantPreempt{{Name: "research", Count: 3, Young: 1, LostGPUh: 12.5}}}
}

func (f *fakeSource) Fragmentation(v Viewer, span time.Duration) FragView {
	return FragView{Span: span, Resolution: "minute", Now: 0.3, Mean: 0.2,
		Points: []Point{{now0.Add(-time.Hour), 0.1}, {now0, 0.3}}}
}

func (f *fakeSource) Reservations(v Viewer) ResvView {
	return ResvView{Rows: []ResvRow{{JobID: "20", User: "bob", Partition: "normal", Nodes: "gpu[01-02]", Held: 8, Awaiting: 8,
		Created: now0.Add(-time.Hour), Planned: now0.Add(time.Hour), Expires: now0.Add(2 * time.Hour)}}}
}

func (f *fakeSource) Suggestions(v Viewer) SuggestView {
	return SuggestView{Generated: now0, Window: 7 * 24 * time.Hour, Items: []Suggestion{{Rule: "queue-wait-rising", Subject: "batch",
		File: "slurm.conf", Line: "PartitionName=batch", Key: "AgingRate", From: "50", To: "100",
		Action: "raise AgingRate of partition batch in slurm.conf from 50 to 100", Why: fmt.Sprintf("mean wait rose %s", "3 h -> 9 h over 7 days")}}}
}
