package slurmconf

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPrivateDataParse(t *testing.T) {
	tests := map[string]struct {
		in   string
		want PrivateData
	}{
		"unset is public":          {"", nil},
		"singular words set kinds": {"job,user", PrivateData{"jobs": true, "users": true}},
		"all sets every kind":      {"all", PrivateData{"accounts": true, "cloud": true, "events": true, "jobs": true, "nodes": true, "partitions": true, "reservations": true, "usage": true, "users": true}},
		"case and unknown words":   {"JOBS,bogus", PrivateData{"jobs": true}},
		"a multi-team site's set":  {"jobs,usage,nodes", PrivateData{"jobs": true, "usage": true, "nodes": true}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, parsePrivateData(tc.in)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestPrivateDataKey: the key reaches Config, and scontrol show config
// prints it in the peer's order.
func TestPrivateDataKey(t *testing.T) {
	c := parseOK(t, "PrivateData=users,jobs,nodes\nNodeName=n1 CPUs=4\n")
	if diff := cmp.Diff(PrivateData{"jobs": true, "nodes": true, "users": true}, c.PrivateData); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	for _, kv := range c.ShowConfig(ShowContext{}) {
		if kv.Key == "PrivateData" && kv.Value != "jobs,nodes,users" {
			t.Errorf("show config PrivateData = %q, want jobs,nodes,users", kv.Value)
		}
	}
	if !c.PrivateData.Has(PrivateJobs) || c.PrivateData.Has(PrivateUsage) {
		t.Errorf("Has: jobs must be private, usage public")
	}
}
