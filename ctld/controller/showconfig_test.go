package controller

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestShowConfigRuntimeKeys: the keys scontrol show config takes from the
// running controller rather than the files.
func TestShowConfigRuntimeKeys(t *testing.T) {
	h := newHarness(t)
	id, err := h.submit(alice, simpleJob(func(*job.Request) {}))
	if err != nil {
		t.Fatal(err)
	}
	// An array task splitting off takes the next id before the database
	// hears of it: NEXT_JOB_ID is the controller's counter.
	h.c.mu.Lock()
	h.c.eng.NextID()
	h.c.mu.Unlock()
	var cfg api.ConfigResponse
	if err := h.raw(alice, "GET", api.PathConfig, nil, &cfg); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, kv := range cfg.Entries {
		got[kv.Key] = kv.Value
	}
	want := map[string]string{
		"NEXT_JOB_ID":   strconv.FormatUint(uint64(id)+2, 10),
		"SLURM_CONF":    h.conf,
		"SLURM_VERSION": "22.05.8",
		"SlurmUser":     "root(0)",
		"SlurmdUser":    "root(0)",
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			got[k] = "(missing)"
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			delete(got, k)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if cfg.BootTime == 0 || cfg.BootTime > cfg.Now {
		t.Errorf("BootTime %d, now %d", cfg.BootTime, cfg.Now)
	}
}
