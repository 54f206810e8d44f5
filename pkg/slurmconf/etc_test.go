package slurmconf

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExampleConfigs checks that etc/demo and etc/site load and validate
// cleanly and have the shape their comments promise.
func TestExampleConfigs(t *testing.T) {
	tests := map[string]struct {
		dir          string
		wantNodes    int
		wantGPUs     int64
		wantTenants  []string
		wantWarnings int
		wantSwitches int
	}{
		"demo: 4 nodes x 8 GPUs": {dir: "../../etc/demo", wantNodes: 4, wantGPUs: 32,
			wantTenants: []string{"research", "product", "data"}},
		"site: 256 nodes x 8 H100 on 32 leaf switches": {dir: "../../etc/site", wantNodes: 256, wantGPUs: 2048,
			wantTenants: []string{"pretrain", "finetune", "inference"}, wantWarnings: 3, wantSwitches: 33},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c, err := Load(os.DirFS(tc.dir), "slurm.conf")
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if len(c.Warnings) != tc.wantWarnings {
				t.Errorf("warnings = %v, want %d", c.Warnings, tc.wantWarnings)
			}
			capacity := c.Capacity()
			if len(c.Nodes) != tc.wantNodes || capacity["gres/gpu"] != tc.wantGPUs {
				t.Errorf("%d nodes with %d GPUs, want %d with %d", len(c.Nodes), capacity["gres/gpu"], tc.wantNodes, tc.wantGPUs)
			}
			for _, n := range c.Nodes {
				if len(n.GRES) != 1 || len(n.GRES[0].Devices) != 8 {
					t.Fatalf("node %s GRES = %+v, want 8 GPU devices", n.Name, n.GRES)
				}
			}
			var classes, tenants []string
			for _, p := range c.Partitions {
				classes = append(classes, p.Name+"="+string(p.QueueClass))
			}
			for _, tn := range c.Tenants {
				tenants = append(tenants, tn.Name)
			}
			if diff := cmp.Diff([]string{"urgent=urgent", "normal=normal", "batch=batch"}, classes); diff != "" {
				t.Errorf("partitions (-want +got):\n%s", diff)
			}
			if p, ok := c.DefaultPartition(); !ok || p.Name != "normal" {
				t.Errorf("default partition = %v", p)
			}
			if diff := cmp.Diff(tc.wantTenants, tenants); diff != "" {
				t.Errorf("tenants (-want +got):\n%s", diff)
			}
			if _, ok := c.User("root"); !ok {
				t.Errorf("no UserName=root")
			}
			if got := 0; c.Topology != nil {
				got = len(c.Topology.Switches)
				if got != tc.wantSwitches {
					t.Errorf("%d switches, want %d", got, tc.wantSwitches)
				}
			} else if tc.wantSwitches != 0 {
				t.Errorf("no topology")
			}
		})
	}
}
