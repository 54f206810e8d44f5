package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestNodeTRESGPUs: CfgTRES and AllocTRES end with the GPU TRES the
// controller sends only when AccountingStorageTRES tracks them. The peer
// tracks none: gpu001 (Gres=gpu:8, 2 held) shows CfgTRES=cpu=64,mem=500G,billing=64
// and AllocTRES=cpu=1,mem=1G.
func TestNodeTRESGPUs(t *testing.T) {
	peer := api.Node{CPUs: 64, RealMemory: 512000, AllocCPUs: 1, AllocMemory: 1024, AllocGPUs: 2, GRES: "gpu:8"}
	tracked := peer
	tracked.CfgGRESTRES, tracked.AllocGRESTRES = "gres/gpu=8", "gres/gpu=2"
	tests := map[string]struct {
		n         api.Node
		wantCfg   string
		wantAlloc string
	}{
		"untracked, as on the peer": {n: peer, wantCfg: "cpu=64,mem=500G,billing=64", wantAlloc: "cpu=1,mem=1G"},
		"gres/gpu tracked":          {n: tracked, wantCfg: "cpu=64,mem=500G,billing=64,gres/gpu=8", wantAlloc: "cpu=1,mem=1G,gres/gpu=2"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := []string{nodeTRES(&tc.n), allocTRES(&tc.n)}
			if diff := cmp.Diff([]string{tc.wantCfg, tc.wantAlloc}, got); diff != "" {
				t.Errorf("CfgTRES, AllocTRES (-want +got):\n%s", diff)
			}
		})
	}
}
