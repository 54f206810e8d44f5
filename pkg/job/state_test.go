package job

import "testing"

func TestStateShortCodes(t *testing.T) {
	// squeue's %t codes, as Slurm's job_state_string_compact prints them.
	want := map[State]string{
		Pending: "PD", Running: "R", Suspended: "S", Completing: "CG", Completed: "CD",
		Configuring: "CF", Cancelled: "CA", Failed: "F", Timeout: "TO", Preempted: "PR",
		NodeFail: "NF", OutOfMemory: "OOM", BootFail: "BF", Deadline: "DL", Requeued: "RQ",
		RequeueHold: "RH", RequeueFed: "RF", Resizing: "RS", ResvDelHold: "RD", Revoked: "RV",
		Signaling: "SI", SpecialExit: "SE", StageOut: "SO", Stopped: "ST",
	}
	for st, code := range want {
		if got := st.ShortCode(); got != code {
			t.Errorf("%s.ShortCode() = %q, want %q", st, got, code)
		}
		for _, in := range []string{code, string(st), lowerString(string(st))} {
			if got, err := ParseState(in); err != nil || got != st {
				t.Errorf("ParseState(%q) = %q, %v; want %q", in, got, err, st)
			}
		}
	}
	if _, err := ParseState("RUNNIN"); err == nil {
		t.Error("ParseState(RUNNIN) succeeded, want error")
	}
}

func lowerString(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func TestStateTerminal(t *testing.T) {
	terminal := map[State]bool{Completed: true, Cancelled: true, Failed: true, Timeout: true,
		Preempted: true, NodeFail: true, OutOfMemory: true, BootFail: true, Deadline: true,
		Revoked: true, SpecialExit: true}
	for st := range states {
		if got := st.IsTerminal(); got != terminal[st] {
			t.Errorf("%s.IsTerminal() = %v, want %v", st, got, terminal[st])
		}
	}
}

func TestTransitions(t *testing.T) {
	tests := map[string]struct {
		from, to State
		want     bool
	}{
		"a pending job starts":                     {Pending, Running, true},
		"a pending job waits for node boot":        {Pending, Configuring, true},
		"a booted job runs":                        {Configuring, Running, true},
		"a running job ends through completing":    {Running, Completing, true},
		"completing ends in timeout":               {Completing, Timeout, true},
		"a running job is suspended and resumed":   {Suspended, Running, true},
		"a preempted job in requeue mode requeues": {Running, Requeued, true},
		"a requeued job pends again":               {Requeued, Pending, true},
		"an ended job is requeued by hand":         {Failed, Requeued, true},
		"an ended job never runs directly":         {Completed, Running, false},
		"a pending job never completes":            {Pending, Completed, false},
		"a job never goes back to configuring":     {Running, Configuring, false},
		"a cancelled job stays cancelled":          {Cancelled, Pending, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := CanTransition(tc.from, tc.to); got != tc.want {
				t.Errorf("CanTransition(%s, %s) = %v, want %v", tc.from, tc.to, got, tc.want)
			}
			if err := CheckTransition(tc.from, tc.to); (err == nil) != tc.want {
				t.Errorf("CheckTransition(%s, %s) = %v", tc.from, tc.to, err)
			}
		})
	}
}

func TestTransitionTableIsClosed(t *testing.T) {
	for from, tos := range transitions {
		if !from.Valid() {
			t.Errorf("transition from unknown state %q", from)
		}
		for _, to := range tos {
			if _, ok := transitions[to]; !ok {
				t.Errorf("%s -> %s: %s has no transitions of its own", from, to, to)
			}
		}
		if from.IsTerminal() && (len(tos) != 1 || tos[0] != Requeued) {
			t.Errorf("terminal %s may go to %v, want only %s", from, tos, Requeued)
		}
	}
}

func TestExitCode(t *testing.T) {
	tests := map[string]struct {
		wait int
		want string
	}{
		"exit 3":              {3 << 8, "3:0"},
		"exit 0":              {0, "0:0"},
		"killed by SIGTERM":   {15, "0:15"},
		"killed by SIGKILL":   {9, "0:9"},
		"core dumped SIGSEGV": {0x80 | 11, "0:11"},
	}
	for name, tc := range tests {
		got := FromWaitStatus(tc.wait)
		if got.String() != tc.want {
			t.Errorf("%s: FromWaitStatus(%#x) = %s, want %s", name, tc.wait, got, tc.want)
		}
		back, err := ParseExitCode(tc.want)
		if err != nil || back != got {
			t.Errorf("%s: ParseExitCode(%q) = %v, %v; want %v", name, tc.want, back, err, got)
		}
	}
	for _, bad := range []string{"", "3", "a:b", "3:-1", "256:0", "1:2:3"} {
		if _, err := ParseExitCode(bad); err == nil {
			t.Errorf("ParseExitCode(%q) succeeded, want error", bad)
		}
	}
}
