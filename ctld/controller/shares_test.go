package controller

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/loamhpc/loam/pkg/api"
)

// TestComputeShares: tenant and user rows from tenants.conf and decayed
// usage, the classic fair-share factor, and who lends what to whom.
func TestComputeShares(t *testing.T) {
	cs := admissionState(t) // vision (guarantee 16 GPUs, weight 1), nlp (8 GPUs); 32 GPUs in all
	in := shareInputs{conf: cs.conf, ratio: 1, cluster: 32, inUse: map[[2]string]int64{
		{"vision", ""}: 26, {"vision", "alice"}: 26, {"nlp", ""}: 2, {"nlp", "alice"}: 2}}
	in.usage = []UsageRow{{Tenant: "vision", GPUSec: 300}, {Tenant: "vision", User: "alice", GPUSec: 300},
		{Tenant: "nlp", GPUSec: 100}, {Tenant: "nlp", User: "alice", GPUSec: 100}}
	rows := computeShares(in)
	fs := func(ue, s float64) float64 { return math.Exp2(-ue / s) }
	want := []api.ShareRow{
		{Account: "vision", RawShares: 1, NormShares: 0.5, RawUsage: 300, NormUsage: 0.75, EffectvUsage: 0.75,
			FairShare: fs(0.75, 0.5), Guarantee: 16, InUse: 26, Borrowed: 10, Lent: 0, GrpTRES: "gres/gpu=24"},
		{Account: "vision", User: "alice", RawShares: 1, NormShares: 0.5, RawUsage: 300, NormUsage: 0.75,
			EffectvUsage: 0.75, FairShare: fs(0.75, 0.25), InUse: 26},
		{Account: "vision", User: "bob", RawShares: 1, NormShares: 0.5, NormUsage: 0, EffectvUsage: 0.375,
			FairShare: fs(0.375, 0.25), GrpTRES: "gres/gpu=4"},
		{Account: "nlp", RawShares: 1, NormShares: 0.5, RawUsage: 100, NormUsage: 0.25, EffectvUsage: 0.25,
			FairShare: fs(0.25, 0.5), Guarantee: 8, InUse: 2, Lent: 2, GrpTRES: "gres/gpu=12"},
		{Account: "nlp", User: "alice", RawShares: 1, NormShares: 1, RawUsage: 100, NormUsage: 0.25,
			EffectvUsage: 0.25, FairShare: fs(0.25, 0.5), InUse: 2},
	}
	if diff := cmp.Diff(want, rows, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// TestLentGPUs: borrowing draws on the unguaranteed capacity first, then
// on idle guarantees in proportion to what each lender can lend.
func TestLentGPUs(t *testing.T) {
	cs := admissionState(t)
	tests := map[string]struct {
		inUse map[[2]string]int64
		want  map[string]int64
	}{
		"borrowing within the unguaranteed 8 GPUs lends nothing": {
			inUse: map[[2]string]int64{{"vision", ""}: 24}, want: map[string]int64{}},
		"use outside tenants.conf borrows nothing": {
			inUse: map[[2]string]int64{{"vision", ""}: 24, {"nlp", "x"}: 0, {"other", ""}: 4}, want: map[string]int64{}},
		"nlp idle, vision 30": {
			inUse: map[[2]string]int64{{"vision", ""}: 30}, want: map[string]int64{"nlp": 6, "vision": 0}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := lentGPUs(shareInputs{conf: cs.conf, cluster: 32, inUse: tc.inUse})
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("lent (-want +got):\n%s", diff)
			}
		})
	}
}
