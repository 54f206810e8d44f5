package job

import "testing"

func TestParseSignal(t *testing.T) {
	tests := map[string]struct {
		spec       string
		want       Signal
		wantString string
	}{
		"a name":                {"USR1", Signal{Number: 10, Seconds: 60}, "USR1"},
		"SIG prefix, any case":  {"sigterm@30", Signal{Number: 15, Seconds: 30}, "TERM@30"},
		"batch shell only":      {"B:USR1@120", Signal{Number: 10, Seconds: 120, Batch: true}, "B:USR1@120"},
		"reservation end too":   {"R:2", Signal{Number: 2, Seconds: 60, Reservation: true}, "R:INT"},
		"both flags, any order": {"RB:HUP", Signal{Number: 1, Seconds: 60, Batch: true, Reservation: true}, "RB:HUP"},
		"a number":              {"10@0", Signal{Number: 10, Seconds: 0}, "USR1@0"},
		"an empty time is 0":    {"USR2@", Signal{Number: 12, Seconds: 0}, "USR2@0"},
		"an unnamed number":     {"40", Signal{Number: 40, Seconds: 60}, "40"},
	}
	for name, tc := range tests {
		got, err := ParseSignal(tc.spec)
		if err != nil || got != tc.want {
			t.Errorf("%s: ParseSignal(%q) = %+v, %v; want %+v", name, tc.spec, got, err, tc.want)
			continue
		}
		if got.String() != tc.wantString {
			t.Errorf("%s: String() = %q, want %q", name, got.String(), tc.wantString)
		}
	}
	for _, bad := range []string{"", "FOO", "USR1@abc", "USR1@-1", "USR1@65536", "0", "65536", "B:", "USR1x"} {
		if s, err := ParseSignal(bad); err == nil {
			t.Errorf("ParseSignal(%q) = %+v, want error", bad, s)
		}
	}
}

func TestParseMailType(t *testing.T) {
	tests := map[string]struct {
		spec string
		want string
	}{
		"two events":                {"END,FAIL", "END,FAIL"},
		"any case, Slurm's order":   {"fail,begin", "BEGIN,FAIL"},
		"ALL":                       {"ALL", "INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT"},
		"unknown names are skipped": {"bogus,END", "END"},
		"NONE clears":               {"END,NONE", "NONE"},
		"time limits":               {"TIME_LIMIT,TIME_LIMIT_80,ARRAY_TASKS", "ARRAY_TASKS,TIME_LIMIT_80,TIME_LIMIT"},
	}
	for name, tc := range tests {
		got, err := ParseMailType(tc.spec)
		if err != nil || got.String() != tc.want {
			t.Errorf("%s: ParseMailType(%q) = %q, %v; want %q", name, tc.spec, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "bogus", ",,"} {
		if _, err := ParseMailType(bad); err == nil {
			t.Errorf("ParseMailType(%q) succeeded, want error", bad)
		}
	}
}
