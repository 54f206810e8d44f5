package job

import (
	"strings"
	"testing"
)

func FuzzParseArray(f *testing.F) {
	for _, s := range arraySpecs {
		f.Add(s, 10001)
	}
	f.Add("500-17000:1000%26", 4000001)
	f.Fuzz(func(t *testing.T, spec string, max int) {
		max = max%MaxArraySizeLimit + 1
		if max < 0 {
			max = -max
		}
		a, err := ParseArray(spec, max)
		if err != nil {
			return
		}
		n := 0
		for i := range a.All() {
			if i < 0 || i >= max || !a.Contains(i) {
				t.Fatalf("ParseArray(%q, %d) yields index %d", spec, max, i)
			}
			n++
		}
		if n != a.Count() {
			t.Fatalf("ParseArray(%q): All yields %d indices, Count says %d", spec, n, a.Count())
		}
		if a.Count() > 0 {
			back, err := ParseArray(a.String(), max)
			if err != nil || back.String() != a.String() {
				t.Fatalf("ParseArray(%q).String() = %q does not parse back: %v", spec, a, err)
			}
		}
		_ = a.Display()
	})
}

func FuzzParseDependency(f *testing.F) {
	fill := strings.NewReplacer("{A}", "41", "{B}", "42")
	for _, s := range depSpecs {
		f.Add(fill.Replace(s))
	}
	f.Fuzz(func(t *testing.T, spec string) {
		d, err := ParseDependency(spec)
		if err != nil {
			return
		}
		s := d.String()
		if s == "" {
			return
		}
		back, err := ParseDependency(s)
		if err != nil {
			t.Fatalf("ParseDependency(%q).String() = %q does not parse back: %v", spec, s, err)
		}
		if back.String() != s {
			t.Fatalf("ParseDependency(%q) prints %q, which prints back as %q", spec, s, back.String())
		}
	})
}

func FuzzParseSignal(f *testing.F) {
	for _, s := range []string{"USR1", "B:USR1@120", "RB:15@0", "sigterm", "USR2@", "R:HUP"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		sg, err := ParseSignal(spec)
		if err != nil {
			return
		}
		back, err := ParseSignal(sg.String())
		if err != nil || back != sg {
			t.Fatalf("ParseSignal(%q) = %+v prints %q, parsed back as %+v, %v", spec, sg, sg.String(), back, err)
		}
	})
}

// FuzzAcctgFreq: any --acctg-freq value is read without a panic; an item
// is reported bad exactly when no data type gets an interval from it.
func FuzzAcctgFreq(f *testing.F) {
	for _, s := range []string{"30", "task=5,energy=60", "foo,bar", "-1", " 5", "xenergy=3", "0,energy=5", "task=99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		bad := BadAcctgFreqItems(spec)
		for _, item := range bad {
			for _, kind := range acctgFreqTypes {
				if AcctgFreqOf(kind, item) != -1 {
					t.Fatalf("item %q reported bad, yet %s=%d", item, kind, AcctgFreqOf(kind, item))
				}
			}
		}
		// Without a memory limit every interval is allowed.
		if !TaskAcctgFreqAllowed(spec, spec, false) {
			t.Fatalf("%q refused for a job without a memory limit", spec)
		}
		if TaskAcctgFreqAllowed(spec, "30", true) && AcctgFreqOf("task", spec) == 0 {
			t.Fatalf("%q turns task sampling off, yet is allowed", spec)
		}
	})
}
