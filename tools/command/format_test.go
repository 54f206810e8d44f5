package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPad(t *testing.T) {
	cases := map[string]struct {
		s          string
		width      int
		right, cut bool
		want       string
	}{
		"no width":                  {s: "abc", want: "abc"},
		"left pads":                 {s: "ab", width: 4, want: "ab  "},
		"left always cuts":          {s: "abcdef", width: 4, want: "abcd"},
		"right pads":                {s: "ab", width: 4, right: true, want: "  ab"},
		"right keeps long values":   {s: "abcdef", width: 4, right: true, want: "abcdef"},
		"right cuts when asked":     {s: "abcdef", width: 4, right: true, cut: true, want: "abcd"},
		"negative width adds blank": {s: "ab", width: -1, want: "ab "},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := string(pad(nil, tc.s, tc.width, tc.right, tc.cut)); got != tc.want {
				t.Errorf("pad = %q, want %q", got, tc.want)
			}
			if got := string(padBytes(nil, []byte(tc.s), tc.width, tc.right, tc.cut)); got != tc.want {
				t.Errorf("padBytes = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseFormats(t *testing.T) {
	i, _ := squeueColumns.letter('i')
	j, _ := squeueColumns.letter('j')
	name, _ := squeueColumns.long("name")
	cases := map[string]struct {
		format  string
		long    bool
		want    []item
		wantBad []string
	}{
		"prefix, widths and suffixes": {
			format: "job=%.18i|%5j end",
			want:   []item{{field: -1, suffix: "job="}, {field: i, width: 18, right: true, suffix: "|"}, {field: j, width: 5, suffix: " end"}},
		},
		"double percent vanishes": {
			format: "%i%%j",
			want:   []item{{field: i}, {field: j}},
		},
		"unknown letter prints as written": {
			format: "%i %~x", want: []item{{field: i, suffix: " "}, {field: -1, suffix: "%~x"}}, wantBad: []string{"~"},
		},
		"only text": {format: "hello", want: []item{{field: -1, suffix: "hello"}}},
		"long names and widths": {
			format: "JobArrayID:.18 ,name:8,name", long: true,
			want: []item{{field: i, width: 18, right: true, suffix: " "}, {field: name, width: 8}, {field: name, width: 20}},
		},
		"unknown long name prints its suffix only": {
			// The peer's squeue -O 'Bogus:5|,JobID:6' heads "|JOBID ".
			format: "name,frob:5|", long: true, want: []item{{field: name, width: 20}, {field: -1, width: 5, suffix: "|"}},
			wantBad: []string{"frob"},
		},
	}
	for n, tc := range cases {
		t.Run(n, func(t *testing.T) {
			var got []item
			var bad []string
			if tc.long {
				got, bad = parseLongFormat(tc.format, squeueColumns)
			} else {
				got, bad = parseShortFormat(tc.format, squeueColumns)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(item{})); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantBad, bad); diff != "" {
				t.Errorf("bad (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzFormat checks that any -o or -O format parses and prints a header
// and a row without panicking.
func FuzzFormat(f *testing.F) {
	for _, s := range []string{"%all", "%.18i %9P %-8j", "x%", "%99999999i", "name:.5x,,jobid:", "%.", ":"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, format string) {
		for _, long := range []bool{false, true} {
			p := &jobPrinter{now: 1795950000}
			if long {
				p.items, _ = parseLongFormat(format, squeueColumns)
			} else {
				p.items, _ = parseShortFormat(format, squeueColumns)
			}
			for k := range p.items {
				p.items[k].width = min(p.items[k].width, 1000)
			}
			p.header(nil)
			p.row(nil, &benchJobs(1)[0])
		}
	})
}
