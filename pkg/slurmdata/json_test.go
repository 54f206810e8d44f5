package slurmdata

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestJSONShapes(t *testing.T) {
	tests := map[string]struct {
		v    Value
		want string
	}{
		"slash escaped":      {Str("/dev/null"), `"\/dev\/null"`},
		"control characters": {Str("a\tb\n\x01\"\\"), `"a\tb\n\u0001\"\\"`},
		"non ascii raw":      {Str("héllo"), `"héllo"`},
		"whole float":        {Float(2), "2.0"},
		"fraction":           {Float(0.1), "0.10000000000000001"},
		"exponent":           {Float(1e20), "1e+20"},
		"nan":                {Float(math.NaN()), "NaN"},
		"negative int":       {Int(-3), "-3"},
		"null":               {Null(), "null"},
		"empty list":         {List(), "[\n]"},
		"empty dict":         {Map(nil), "{\n}"},
		"nested empty list": {
			Map(NewDict().Set("errors", List())),
			"{\n  \"errors\": [\n  ]\n}",
		},
		"list of dicts": {
			List(Map(NewDict().Set("a", Int(1)).Set("b", Bool(false)))),
			"[\n  {\n    \"a\": 1,\n    \"b\": false\n  }\n]",
		},
		"set again keeps place": {
			Map(NewDict().Set("a", Int(1)).Set("b", Int(2)).Set("a", Int(3))),
			"{\n  \"a\": 3,\n  \"b\": 2\n}",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, string(JSON(tc.v))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzStrings checks that any valid UTF-8 string comes back from the JSON
// writer unchanged and that the YAML writer frames it without panicking.
func FuzzStrings(f *testing.F) {
	for _, s := range []string{"", "a b", "/x", "a\nb", " #x", "h\u00e9", "\t", "'q'", strings.Repeat("word ", 30)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		doc := Map(NewDict().Set("k", Str(s)).Set("l", List(Str(s))))
		var back struct {
			K string   `json:"k"`
			L []string `json:"l"`
		}
		if err := json.Unmarshal(JSON(doc), &back); err != nil {
			t.Fatalf("JSON of %q does not parse: %v", s, err)
		}
		if back.K != s || len(back.L) != 1 || back.L[0] != s {
			t.Fatalf("JSON of %q read back as %q, %q", s, back.K, back.L)
		}
		y := string(YAML(doc))
		if !strings.HasPrefix(y, "%YAML 1.1\n--- !!map\n!!str k: ") || !strings.HasSuffix(y, "\n...\n") {
			t.Fatalf("YAML of %q framed wrongly:\n%s", s, y)
		}
	})
}
