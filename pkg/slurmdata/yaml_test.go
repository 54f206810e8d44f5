package slurmdata

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestYAMLScalarsAsLibyaml checks each string of testdata/scalar_cases.json,
// as a value at two depths, against what libyaml's own emitter wrote for
// the same events with Slurm's settings (testdata/libyaml_scalars.json:
// explicit tags, no Unicode output, width 80).
func TestYAMLScalarsAsLibyaml(t *testing.T) {
	var cases, want map[string]string
	if err := json.Unmarshal(readFile(t, "scalar_cases.json"), &cases); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(readFile(t, "libyaml_scalars.json"), &want); err != nil {
		t.Fatal(err)
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			doc := NewDict().Set("key", Str(s)).Set("nested", Map(NewDict().Set("deeper_key_name", Str(s))))
			if diff := cmp.Diff(want[name], string(YAML(Map(doc)))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestYAMLShapes(t *testing.T) {
	tests := map[string]struct {
		v    Value
		want string
	}{
		"empty string is null":   {Map(NewDict().Set("a", Str(""))), "!!str a: !!null null"},
		"empty map is flow":      {Map(NewDict().Set("a", Map(nil))), "!!str a: !!map {}"},
		"empty list is flow":     {Map(NewDict().Set("a", List())), "!!str a: !!seq []"},
		"float has six decimals": {Map(NewDict().Set("a", Float(2))), "!!str a: !!float 2.000000"},
		"list in map is not indented": {
			Map(NewDict().Set("a", Strs([]string{"x", "y"}))),
			"!!str a: !!seq\n- !!str x\n- !!str y",
		},
		"list in list is indented": {
			Map(NewDict().Set("a", List(Strs([]string{"x"})))),
			"!!str a: !!seq\n- !!seq\n  - !!str x",
		},
		"map in list": {
			Map(NewDict().Set("a", List(Map(NewDict().Set("b", Int(1)).Set("c", Bool(true)))))),
			"!!str a: !!seq\n- !!map\n  !!str b: !!int 1\n  !!str c: !!bool true",
		},
		"root list": {List(Int(1), Null()), "- !!int 1\n- !!null null"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := string(YAML(tc.v))
			got = strings.TrimSuffix(strings.TrimPrefix(got, "%YAML 1.1\n---"), "\n...\n")
			got = strings.TrimPrefix(strings.TrimPrefix(got, " !!map\n"), " !!seq\n")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
