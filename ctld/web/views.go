package web

import (
	"net/http"
	"time"
)

// Viewer is who looks at a page.
type Viewer struct {
	UID   uint32
	User  string
	Admin bool // root or SlurmUser: sees every job and the suggestions
}

// Source is where the pages' data comes from.
type Source interface {
	// Now is the controller's clock.
	Now() time.Time
	// ClusterName names the cluster in page titles.
	ClusterName() string
	// PeerViewer identifies a request that came over the Unix socket.
	PeerViewer(r *http.Request) (Viewer, bool)
	// ViewerFor is the viewer a valid token names; whether it is an admin
	// is decided now, not when the token was minted.
	ViewerFor(uid uint32, user string) Viewer

	Overview(v Viewer) Overview
	Queue(v Viewer, f QueueFilter) QueueView
	Quotas(v Viewer, span time.Duration) QuotaView
	Waits(v Viewer, span time.Duration) WaitView
	Preemptions(v Viewer, span time.Duration) PreemptView
	Fragmentation(v Viewer, span time.Duration) FragView
	Reservations(v Viewer) ResvView
	Suggestions(v Viewer) SuggestView
}

// Overview is cluster usage now.
type Overview struct {
	GPUs          Usage
	Nodes         NodeCounts
	Fragmentation float64
	Partitions    []PartitionUsage
	Tenants       []TenantUsage
	// Mine are the viewer's pending jobs; Suggestions how many there are
	// (admins only).
	Mine        []QueueRow
	Suggestions int
	// RunRatio is the cluster's actual/limit run-time ratio the estimates
	// use.
	RunRatio float64
}

// Usage counts GPUs (or anything) by what they do.
type Usage struct {
	Total, Alloc, Idle, Down int
}

// NodeCounts counts nodes by state.
type NodeCounts struct {
	Total, Busy, Idle, Drain, Down int
}

// PartitionUsage is one partition now.
type PartitionUsage struct {
	Name           string
	Pending        int
	Running        int
	GPUs, GPUsUsed int
	// MeanWait is the mean wait of jobs started in the last 24 hours.
	MeanWait time.Duration
}

// TenantUsage is one tenant's GPUs now.
type TenantUsage struct {
	Name                        string
	Guarantee                   int
	Held, Owned, Borrowed, Lent int
}

// QueueFilter narrows the queue page.
type QueueFilter struct {
	Partition string
	User      string
}

// QueueRow is one pending or running job.
type QueueRow struct {
	JobID     string
	Name      string
	User      string
	Tenant    string
	Partition string
	State     string
	Reason    string
	Position  int
	Of        int // pending jobs in the partition
	Priority  int64
	GPUs      int
	Submit    time.Time
	EstStart  time.Time // zero: no estimate
	// Planned is the scheduler's estimate on time limits alone.
	Planned time.Time
}

// QueueView is the queue page.
type QueueView struct {
	Filter     QueueFilter
	Names      []string // every partition, for the filter
	Partitions []QueuePartition
	// OnlyOwn says the rows are the viewer's jobs only.
	OnlyOwn bool
}

// QueuePartition is one partition's pending jobs in position order.
type QueuePartition struct {
	Name    string
	Pending int
	Rows    []QueueRow
	More    int // rows left out
}

// QuotaView is the tenant x time heat map of quota utilization: GPUs held
// over the guarantee, per bucket.
type QuotaView struct {
	Span       time.Duration
	Resolution string
	Tenants    []string
	Cols       []time.Time
	// Util[tenant][col] is the mean utilization, NaN when nothing was
	// recorded.
	Util [][]float64
}

// WaitView is the wait-time distribution per queue.
type WaitView struct {
	Span   time.Duration
	Queues []WaitQueue
}

// WaitQueue is one queue's waits over the span.
type WaitQueue struct {
	Name    string
	Started int
	Mean    time.Duration
	Buckets []Count // jobs per wait bucket
	// Daily is the mean wait per day.
	Daily []Point
}

// Count is a labelled count.
type Count struct {
	Label string
	N     int
}

// Point is one value at one time.
type Point struct {
	At    time.Time
	Value float64
}

// PreemptView is preemptions per tenant.
type PreemptView struct {
	Span    time.Duration
	Tenants []TenantPreempt
}

// TenantPreempt is one tenant's preempted jobs.
type TenantPreempt struct {
	Name     string
	Count    int
	Young    int // victims that had run under 30 minutes
	LostGPUh float64
	Daily    []Point
}

// FragView is the fragmentation rate over time.
type FragView struct {
	Span       time.Duration
	Resolution string
	Points     []Point
	Now, Mean  float64
}

// ResvView lists the scheduler's reservations.
type ResvView struct {
	Rows   []ResvRow
	Hidden int // other users' reservations (non-admins)
}

// ResvRow is one reservation.
type ResvRow struct {
	JobID     string
	User      string
	Partition string
	Nodes     string
	Held      int // GPUs held now
	Awaiting  int // GPUs still in use by others
	Created   time.Time
	Planned   time.Time
	Expires   time.Time
}

// SuggestView lists the suggestions (admins only).
type SuggestView struct {
	Generated time.Time
	Window    time.Duration
	Items     []Suggestion
}

// Suggestion is one piece of advice.
type Suggestion struct {
	Rule, Subject, File, Line, Key, From, To, Action, Why string
	Evidence                                              []Point
}
