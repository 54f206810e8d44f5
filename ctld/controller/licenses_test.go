package controller

import (
	"errors"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// TestValidLicenses: what the peer (Licenses=matlab:2,wandb:10) accepts at
// submit and what it refuses with "Invalid license specification".
func TestValidLicenses(t *testing.T) {
	conf := &slurmconf.Config{Licenses: []slurmconf.License{{Name: "matlab", Count: 2}, {Name: "wandb", Count: 10}}}
	tests := map[string]struct {
		spec string
		want bool
	}{
		"none":                  {"", true},
		"all of two":            {"matlab:1,wandb", true},
		"a count of zero":       {"matlab:0", true},
		"a name twice, in all":  {"matlab:1,matlab:1", true},
		"more than exist":       {"matlab:3", false},
		"twice, more than all":  {"matlab:2,matlab:1", false},
		"an unknown license":    {"foo:1", false},
		"any of (not in 22.05)": {"matlab|wandb", false},
		"a bad count":           {"matlab:x", false},
		"a remote license":      {"matlab@db", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := validLicenses(conf, tc.spec); got != tc.want {
				t.Errorf("validLicenses(%q) = %v, want %v", tc.spec, got, tc.want)
			}
		})
	}
	if validLicenses(&slurmconf.Config{}, "matlab") {
		t.Error("a cluster without licenses accepted -L matlab")
	}
}

// TestLicensesBeforeShape: a job with an unknown license that no node
// could hold either is refused for its license, as the peer refuses -L
// foo:1 --mincpus=70 ("Invalid license specification").
func TestLicensesBeforeShape(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	_, err := h.submit(alice, simpleJob(func(r *job.Request) { r.Licenses, r.MinCPUs = "foo:1", 999 }))
	var aerr *api.Error
	if !errors.As(err, &aerr) || aerr.Code != api.CodeInvalidLicenses {
		t.Errorf("submit: %v, want %s", err, api.CodeInvalidLicenses)
	}
}
