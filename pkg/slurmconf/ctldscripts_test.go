package slurmconf

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestCtldScriptsKeys(t *testing.T) {
	tests := map[string]struct {
		lines string
		want  CtldScripts
	}{
		"unset: nothing runs, nothing requeues": {"", CtldScripts{}},
		"every key, as the peer's extra file sets them": {
			"PrologSlurmctld=/etc/slurm/pctld.sh\nEpilogSlurmctld=/etc/slurm/ectld.sh\nRequeueExit=3,10-12\nRequeueExitHold=4\n",
			CtldScripts{PrologSlurmctld: "/etc/slurm/pctld.sh", EpilogSlurmctld: "/etc/slurm/ectld.sh",
				RequeueExit: []int{3, 10, 11, 12}, RequeueExitHold: []int{4}},
		},
		"codes sorted, duplicates once": {"RequeueExit=9,1-2,2,255,0\n", CtldScripts{RequeueExit: []int{0, 1, 2, 9, 255}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := parseOK(t, tc.lines)
			if diff := cmp.Diff(tc.want, c.CtldScripts); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestCtldScriptsRefusals(t *testing.T) {
	for name, tc := range map[string]struct{ line, want string }{
		"a relative prolog": {"PrologSlurmctld=pctld.sh",
			`slurm.conf:3: PrologSlurmctld: invalid value: "pctld.sh" is not an absolute path`},
		"a relative epilog": {"EpilogSlurmctld=bin/ectld",
			`slurm.conf:3: EpilogSlurmctld: invalid value: "bin/ectld" is not an absolute path`},
		"a range past 255": {"RequeueExit=250-256",
			`slurm.conf:3: RequeueExit: invalid value: "250-256" is not an exit code (0-255)`},
		"a code above 255": {"RequeueExit=1,256",
			`slurm.conf:3: RequeueExit: invalid value: "256" is not an exit code (0-255)`},
		"a range from a word": {"RequeueExit=x-3",
			`slurm.conf:3: RequeueExit: invalid value: "x-3" is not an exit code (0-255)`},
		"a word": {"RequeueExitHold=one",
			`slurm.conf:3: RequeueExitHold: invalid value: "one" is not an exit code (0-255)`},
		"a backward range": {"RequeueExit=5-3",
			`slurm.conf:3: RequeueExit: invalid value: "5-3" is not a range: 5 is above 3`},
		"a negative code": {"RequeueExit=-1",
			`slurm.conf:3: RequeueExit: invalid value: "-1" is not an exit code (0-255)`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header + tc.line + "\n")}}, "slurm.conf")
			checkErrorPrefixes(t, err, []string{tc.want})
		})
	}
}

func TestRequeueOn(t *testing.T) {
	s := CtldScripts{RequeueExit: []int{3, 4, 10, 11}, RequeueExitHold: []int{4, 7}}
	type got struct{ Requeue, Hold bool }
	for name, tc := range map[string]struct {
		code int
		want got
	}{
		"listed in RequeueExit":                  {3, got{true, false}},
		"listed in RequeueExitHold":              {7, got{true, true}},
		"in both: requeued, not held (the peer)": {4, got{true, false}},
		"in neither: ends as it ended":           {5, got{}},
		"0 is not listed: completes":             {0, got{}},
	} {
		t.Run(name, func(t *testing.T) {
			var g got
			g.Requeue, g.Hold = s.RequeueOn(tc.code)
			if diff := cmp.Diff(tc.want, g); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParseExitCodes(f *testing.F) {
	for _, s := range []string{"3,10-12", "0-255", "1-", "-", "5-3", ",,", "999999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		codes, err := ParseExitCodes(s)
		if err != nil {
			return
		}
		for i, c := range codes {
			if c < 0 || c > maxExitCode || i > 0 && codes[i-1] >= c {
				t.Fatalf("ParseExitCodes(%q) = %v: not sorted unique codes", s, codes)
			}
		}
	})
}
