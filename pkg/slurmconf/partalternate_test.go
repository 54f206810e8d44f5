package slurmconf

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestPartRoute: Alternate is kept as written, even when it names no
// partition (a submission reaching it is refused, not the file); LLN is
// YES or NO; both default to none.
func TestPartRoute(t *testing.T) {
	tests := map[string]struct {
		part string
		want PartRoute
	}{
		"nothing set":          {"", PartRoute{}},
		"Alternate":            {" Alternate=q", PartRoute{Alternate: "q"}},
		"an unknown Alternate": {" Alternate=nosuch", PartRoute{Alternate: "nosuch"}},
		"LLN=YES":              {" LLN=YES", PartRoute{LLN: true}},
		"lln=no, key any case": {" lln=no", PartRoute{}},
		"both, from a DEFAULT": {"", PartRoute{Alternate: "q", LLN: true}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			def := ""
			if strings.Contains(name, "DEFAULT") {
				def = "PartitionName=DEFAULT Alternate=q LLN=yes\n"
			}
			c := parseOK(t, limitsNodes+def+"PartitionName=p Nodes=n1"+tc.part+"\nPartitionName=q Nodes=n1\n")
			p, _ := c.Partition("p")
			if diff := cmp.Diff(tc.want, p.PartRoute); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPartRouteBad: an LLN that is not a boolean is named.
func TestPartRouteBad(t *testing.T) {
	_, err := Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header + limitsNodes + "PartitionName=p Nodes=n1 LLN=maybe\n")}}, "slurm.conf")
	if err == nil || !strings.Contains(err.Error(), "LLN") {
		t.Errorf("error %v, want one naming LLN", err)
	}
}
