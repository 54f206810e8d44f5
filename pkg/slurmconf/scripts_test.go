package slurmconf

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestScriptKeys(t *testing.T) {
	tests := map[string]struct {
		lines string
		want  Scripts
	}{
		"unset: the check runs in any state": {"", Scripts{HealthCheckStates: HealthAny}},
		"every key": {
			"TaskProlog=/etc/tp\nTaskEpilog=/etc/te\nSrunProlog=/etc/sp\nSrunEpilog=/etc/se\n" +
				"HealthCheckProgram=/usr/sbin/nhc\nHealthCheckInterval=300\nHealthCheckNodeState=idle,CYCLE\n",
			Scripts{TaskProlog: "/etc/tp", TaskEpilog: "/etc/te", SrunProlog: "/etc/sp", SrunEpilog: "/etc/se",
				HealthCheckProgram: "/usr/sbin/nhc", HealthCheckInterval: 300 * time.Second,
				HealthCheckStates: HealthIdle | HealthCycle},
		},
		"CYCLE alone spreads runs in any state": {"HealthCheckNodeState=CYCLE\n",
			Scripts{HealthCheckStates: HealthAny | HealthCycle}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := parseOK(t, tc.lines)
			if diff := cmp.Diff(tc.want, c.Scripts); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestHealthCheckNodeStateRefusals(t *testing.T) {
	for name, v := range map[string]string{
		"an unknown word":        "BUSY",
		"one bad word of two":    "IDLE,DOWN",
		"an empty item":          "IDLE,",
		"a state flag, not word": "DRAIN",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header + "HealthCheckNodeState=" + v + "\n")}}, "slurm.conf")
			checkErrorPrefixes(t, err, []string{`slurm.conf:3: HealthCheckNodeState: invalid value: "` + v + `" is not a list of node states`})
		})
	}
}

func TestHealthCheckStateMatches(t *testing.T) {
	type node struct {
		base  string
		drain bool
	}
	nodes := []node{{"IDLE", false}, {"IDLE", true}, {"MIXED", false}, {"ALLOCATED", false}, {"DOWN", false}}
	tests := map[string]struct {
		value string
		want  []bool // in the order of nodes
	}{
		"ANY runs everywhere up":             {"ANY", []bool{true, true, true, true, true}},
		"IDLE includes drained idle nodes":   {"IDLE", []bool{true, true, false, false, false}},
		"NONDRAINED_IDLE skips drained":      {"NONDRAINED_IDLE", []bool{true, false, false, false, false}},
		"ALLOC is fully allocated only":      {"ALLOC", []bool{false, false, false, true, false}},
		"MIXED and ALLOC combine":            {"MIXED,ALLOC", []bool{false, false, true, true, false}},
		"CYCLE does not narrow the states":   {"CYCLE", []bool{true, true, true, true, true}},
		"CYCLE with IDLE is idle nodes only": {"idle,cycle", []bool{true, true, false, false, false}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			st, ok := ParseHealthCheckState(tc.value)
			if !ok {
				t.Fatalf("ParseHealthCheckState(%q) refused", tc.value)
			}
			var got []bool
			for _, n := range nodes {
				got = append(got, st.Matches(n.base, n.drain))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
