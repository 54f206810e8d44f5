package suggest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var day0 = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// days turns values into daily samples from day0.
func days(vals ...float64) []Sample {
	out := make([]Sample, len(vals))
	for i, v := range vals {
		out[i] = Sample{Day: day0.Add(time.Duration(i) * 24 * time.Hour), Value: v}
	}
	return out
}

// hours turns hours into daily samples of seconds.
func hours(vals ...float64) []Sample {
	for i := range vals {
		vals[i] *= 3600
	}
	return days(vals...)
}

func texts(s []Suggestion) []string {
	var out []string
	for _, x := range s {
		out = append(out, x.Text())
	}
	return out
}

func week() *Input { return &Input{Now: day0.Add(7 * 24 * time.Hour), Window: 7 * 24 * time.Hour} }

func TestQueueWaitRising(t *testing.T) {
	tests := map[string]struct {
		q    Queue
		want []string
	}{
		"a wait that keeps rising raises the aging rate": {
			q:    Queue{Name: "batch", AgingRate: 50, MeanWait: hours(3, 3, 4, 5, 6, 8, 9)},
			want: []string{"raise AgingRate of partition batch in slurm.conf from 50 to 100: mean wait rose 3 h -> 8.5 h over 7 days"},
		},
		"a capped rate that jobs outwait raises the cap too": {
			q: Queue{Name: "normal", AgingRate: 100, AgingCap: 400, MeanWait: hours(2, 2, 3, 4, 6, 7, 8)},
			want: []string{
				"raise AgingRate of partition normal in slurm.conf from 100 to 200: mean wait rose 2 h -> 7.5 h over 7 days",
				"raise AgingCap of partition normal in slurm.conf from 400 to 1500: mean wait rose 2 h -> 7.5 h over 7 days; at AgingRate 200 jobs reach the cap after 2 h, but wait 7.5 h",
			},
		},
		"no aging yet starts at 10 points per hour": {
			q:    Queue{Name: "b", MeanWait: hours(1, 1, 2, 3)},
			want: []string{"raise AgingRate of partition b in slurm.conf from 0 to 10: mean wait rose 1 h -> 2.5 h over 4 days"},
		},
		"a flat wait says nothing":               {q: Queue{Name: "b", AgingRate: 50, MeanWait: hours(5, 6, 5, 6, 5, 6, 5)}},
		"a falling wait says nothing":            {q: Queue{Name: "b", AgingRate: 50, MeanWait: hours(9, 8, 6, 4, 3, 3, 2)}},
		"a rise of minutes is not a problem":     {q: Queue{Name: "b", AgingRate: 50, MeanWait: days(60, 60, 120, 300, 600, 900, 1200)}},
		"three days are too few to call a trend": {q: Queue{Name: "b", AgingRate: 50, MeanWait: hours(1, 5, 9)}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			in := week()
			in.Queues = []Queue{tc.q}
			if diff := cmp.Diff(tc.want, texts(Evaluate(in, Thresholds{}))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestQuotaUnderused(t *testing.T) {
	borrower := Tenant{Name: "vision", Guarantee: 16, Used: days(30, 30, 30, 30, 30), Borrowed: days(14, 14, 14, 14, 14)}
	small := Tenant{Name: "speech", Guarantee: 8, Used: days(10, 10, 9, 9, 9), Borrowed: days(2, 2, 1, 1, 1)}
	tests := map[string]struct {
		tenants []Tenant
		want    []string
	}{
		"a tenant under 30% every day gives GPUs to those who borrow, most first": {
			tenants: []Tenant{{Name: "research", Guarantee: 64, Used: days(10, 12, 14, 12, 11, 13, 12)}, small, borrower},
			want: []string{"lower Guarantee of tenant research in tenants.conf from 64 to 18 GPUs and give the 46 GPUs to vision, speech, which borrowed meanwhile: " +
				"used 12 of 64 guaranteed GPUs on average (19%, at most 14 in a day) over 7 days"},
		},
		"with nobody borrowing it only lowers the guarantee": {
			tenants: []Tenant{{Name: "research", Guarantee: 64, Used: days(0, 0, 2, 0, 0)}},
			want:    []string{"lower Guarantee of tenant research in tenants.conf from 64 to 3 GPUs: used 0.4 of 64 guaranteed GPUs on average (1%, at most 2 in a day) over 5 days"},
		},
		"one busy day keeps the guarantee": {
			tenants: []Tenant{{Name: "research", Guarantee: 64, Used: days(10, 12, 40, 12, 11, 13, 12)}, borrower},
		},
		"a tenant without a guarantee is not judged": {
			tenants: []Tenant{{Name: "data", Used: days(0, 0, 0, 0, 0)}},
		},
		"too few days of history": {
			tenants: []Tenant{{Name: "research", Guarantee: 64, Used: days(1, 1, 1)}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			in := week()
			in.Tenants = tc.tenants
			if diff := cmp.Diff(tc.want, texts(Evaluate(in, Thresholds{}))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestReservationsExpiring(t *testing.T) {
	tests := map[string]struct {
		q    Queue
		want []string
	}{
		"most reservations timing out double the timeout": {
			q: Queue{Name: "normal", ReservationTimeout: 30 * time.Minute, ReservationsCreated: 55, ReservationsExpired: 40},
			want: []string{"raise ReservationTimeout of partition normal in slurm.conf from 30 min to 1 h: " +
				"40 of 55 reservations (73%) timed out before their job started over 7 days"},
		},
		"a few expiries are normal":           {q: Queue{Name: "n", ReservationTimeout: time.Hour, ReservationsCreated: 50, ReservationsExpired: 10}},
		"a small count is not a pattern":      {q: Queue{Name: "n", ReservationTimeout: time.Hour, ReservationsCreated: 4, ReservationsExpired: 4}},
		"reservations that never expire pass": {q: Queue{Name: "n", ReservationsCreated: 40, ReservationsExpired: 40}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			in := week()
			in.Queues = []Queue{tc.q}
			got := Evaluate(in, Thresholds{})
			if diff := cmp.Diff(tc.want, texts(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if len(got) == 1 && (got[0].From != "00:30:00" || got[0].To != "01:00:00" || got[0].Line != "PartitionName=normal") {
				t.Errorf("config values: %+v", got[0])
			}
		})
	}
}

func TestPreemptionThrash(t *testing.T) {
	tests := map[string]struct {
		p      Preemption
		exempt time.Duration
		want   []string
	}{
		"young victims raise the exempt time": {
			p:      Preemption{Count: 48, Young: 31, YoungRun: 30 * time.Minute, LostGPUHours: 120.5},
			exempt: 10 * time.Minute,
			want: []string{"raise PreemptExemptTime in slurm.conf from 10 min to 30 min: " +
				"48 preemptions over 7 days, 31 (65%) of them hit jobs that had run under 30 min; 120.5 GPU-hours lost"},
		},
		"an exempt time already past the young run doubles": {
			p:      Preemption{Count: 12, Young: 12, YoungRun: 30 * time.Minute, LostGPUHours: 3},
			exempt: time.Hour,
			want:   []string{"raise PreemptExemptTime in slurm.conf from 1 h to 2 h: 12 preemptions over 7 days, 12 (100%) of them hit jobs that had run under 30 min; 3 GPU-hours lost"},
		},
		"preemptions of old jobs are the point of preemption": {p: Preemption{Count: 48, Young: 5, YoungRun: 30 * time.Minute}},
		"a few preemptions are no thrash":                     {p: Preemption{Count: 4, Young: 4, YoungRun: 30 * time.Minute}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			in := week()
			in.Preemption, in.PreemptExemptTime = tc.p, tc.exempt
			if diff := cmp.Diff(tc.want, texts(Evaluate(in, Thresholds{}))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestFragmentationHigh(t *testing.T) {
	tests := map[string]struct {
		frag  []Sample
		waits int
		want  []string
	}{
		"high every day while whole-node jobs wait": {
			frag: days(0.45, 0.61, 0.5, 0.52, 0.49), waits: 35,
			want: []string{"give a quarter of the GPU nodes Weight=1 and the rest Weight=10 on their NodeName lines in slurm.conf, so small jobs pack onto the low-weight nodes and whole nodes stay free: " +
				"the fragmentation rate stayed between 45% and 61% (mean 51%) over 5 days while 35 jobs asking for whole nodes waited"},
		},
		"nobody needs whole nodes":  {frag: days(0.6, 0.6, 0.6, 0.6), waits: 0},
		"one good day breaks a run": {frag: days(0.6, 0.3, 0.6, 0.6, 0.6), waits: 10},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			in := week()
			in.Fragmentation, in.WholeNodeWaits = tc.frag, tc.waits
			if diff := cmp.Diff(tc.want, texts(Evaluate(in, Thresholds{}))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestEvaluateOrdersByRuleThenSubject(t *testing.T) {
	in := week()
	in.Queues = []Queue{
		{Name: "zeta", AgingRate: 10, MeanWait: hours(1, 1, 3, 4)},
		{Name: "alpha", AgingRate: 10, MeanWait: hours(1, 1, 3, 4), ReservationTimeout: time.Hour, ReservationsCreated: 10, ReservationsExpired: 9},
	}
	var got []string
	for _, s := range Evaluate(in, Thresholds{}) {
		got = append(got, s.Rule+" "+s.Subject)
	}
	want := []string{"queue-wait-rising alpha", "queue-wait-rising zeta", "reservations-expiring alpha"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
