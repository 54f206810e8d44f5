package suggest

import (
	"cmp"
	"slices"
	"time"
)

// Input is the history the rules read, over Window before Now.
type Input struct {
	Now    time.Time
	Window time.Duration
	Queues []Queue
	// Tenants with a guarantee (GPUs).
	Tenants []Tenant
	// Fragmentation is the daily mean fragmentation rate (0-1).
	Fragmentation []Sample
	// Preemption counts over the window, cluster-wide.
	Preemption Preemption
	// PreemptExemptTime is slurm.conf's value now.
	PreemptExemptTime time.Duration
	// WholeNodeWaits counts jobs asking for whole nodes that waited in the
	// window; fragmentation matters only when some did.
	WholeNodeWaits int
}

// Sample is one day's value.
type Sample struct {
	Day   time.Time
	Value float64
}

// Queue is one partition's history and the settings the rules may change.
type Queue struct {
	Name string
	// MeanWait is the daily mean wait (seconds) of the jobs that started.
	MeanWait []Sample
	// AgingRate and AgingCap are the partition's values now (points per
	// hour, points).
	AgingRate float64
	AgingCap  float64
	// ReservationTimeout is the partition's value now (0: none).
	ReservationTimeout time.Duration
	// Reservations created and dropped by timeout in the window.
	ReservationsCreated int
	ReservationsExpired int
}

// Tenant is one tenant's use of its guarantee.
type Tenant struct {
	Name      string
	Guarantee int // GPUs
	// Used is the daily mean of GPUs the tenant held (owned and borrowed).
	Used []Sample
	// Borrowed is the daily mean of GPUs it held beyond its guarantee.
	Borrowed []Sample
}

// Preemption summarizes the window's preemptions.
type Preemption struct {
	Count int
	// Young counts victims that had run less than YoungRun.
	Young    int
	YoungRun time.Duration
	// LostGPUHours is the run time lost, in GPU-hours.
	LostGPUHours float64
}

// Suggestion is one piece of advice.
type Suggestion struct {
	// Rule names the rule that fired (queue-wait-rising, ...).
	Rule string `json:"rule"`
	// Subject is what it is about: a partition, a tenant, or "cluster".
	Subject string `json:"subject"`
	// File is the configuration file to edit; Line the record in it
	// ("PartitionName=batch"); Key the key; From and To its current and
	// suggested values as they would be written.
	File string `json:"file"`
	Line string `json:"line"`
	Key  string `json:"key"`
	From string `json:"from"`
	To   string `json:"to"`
	// Action says what to change; Why gives the numbers behind it.
	Action string `json:"action"`
	Why    string `json:"why"`
	// Evidence is the series the rule read (daily values), for plots.
	Evidence []Sample `json:"evidence,omitempty"`
}

// Text is the suggestion as one line: "action: why".
func (s Suggestion) Text() string { return s.Action + ": " + s.Why }

// Thresholds tune the rules; zero values take the defaults.
type Thresholds struct {
	// MinDays is how many days of data a trend needs (default 4).
	MinDays int
	// WaitRise: the mean wait of the last days is at least this multiple
	// of the first days' (default 1.5), and at least WaitFloor (30 min).
	WaitRise  float64
	WaitFloor time.Duration
	// QuotaUse: a tenant using less than this share of its guarantee
	// every day (default 0.3).
	QuotaUse float64
	// ExpiredShare of reservations timing out, with at least
	// MinExpired of them (defaults 0.5 and 5).
	ExpiredShare float64
	MinExpired   int
	// Preemptions: at least MinPreemptions in the window, YoungShare of
	// them young (defaults 10 and 0.5).
	MinPreemptions int
	YoungShare     float64
	// Fragmentation above this every day (default 0.4).
	Fragmentation float64
}

func (t *Thresholds) defaults() {
	t.MinDays = cmp.Or(t.MinDays, 4)
	t.WaitRise = cmp.Or(t.WaitRise, 1.5)
	t.WaitFloor = cmp.Or(t.WaitFloor, 30*time.Minute)
	t.QuotaUse = cmp.Or(t.QuotaUse, 0.3)
	t.ExpiredShare = cmp.Or(t.ExpiredShare, 0.5)
	t.MinExpired = cmp.Or(t.MinExpired, 5)
	t.MinPreemptions = cmp.Or(t.MinPreemptions, 10)
	t.YoungShare = cmp.Or(t.YoungShare, 0.5)
	t.Fragmentation = cmp.Or(t.Fragmentation, 0.4)
}

// rules run in this order; each returns its suggestions.
var rules = []func(in *Input, th *Thresholds) []Suggestion{
	waitRising, quotaUnderused, reservationsExpiring, preemptionThrash, fragmentationHigh,
}

// Evaluate runs every rule over in and returns what fired, by rule, then
// subject.
func Evaluate(in *Input, th Thresholds) []Suggestion {
	th.defaults()
	var out []Suggestion
	for _, r := range rules {
		got := r(in, &th)
		slices.SortStableFunc(got, func(a, b Suggestion) int { return cmp.Compare(a.Subject, b.Subject) })
		out = append(out, got...)
	}
	return out
}
