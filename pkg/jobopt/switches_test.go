package jobopt

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// switchesSeen is what a parse made of --switches: the request's count
// and wait, the -v line, the warnings, or the error lines and status.
type switchesSeen struct {
	Count    int
	Wait     *int64
	Defined  string
	Warnings []string
	Err      []string
	Code     int
}

func i64p(v int64) *int64 { return &v }

// TestSwitchesOption checks --switches=COUNT[@TIME] and the
// SBATCH_REQ_SWITCH / SBATCH_WAIT4SWITCH variables against the peer's
// sbatch: its error lines and exit status, and its -v line (the waits it
// then stored are checked in the controller, which caps them).
func TestSwitchesOption(t *testing.T) {
	bad := func(v string) switchesSeen {
		return switchesSeen{Err: []string{`sbatch: error: Invalid numeric value "` + v + `" for --switches.`}, Code: 1}
	}
	tests := map[string]struct {
		env  []string
		args []string
		want switchesSeen
	}{
		"a count":                       {args: []string{"--switches=2"}, want: switchesSeen{Count: 2, Defined: "2"}},
		"a count after a blank":         {args: []string{"--switches= 3@5:30"}, want: switchesSeen{Count: 3, Wait: i64p(330), Defined: "3@00:05:30"}},
		"plain minutes":                 {args: []string{"--switches=2@10"}, want: switchesSeen{Count: 2, Wait: i64p(600), Defined: "2@00:10:00"}},
		"a day":                         {args: []string{"--switches=2@1-0"}, want: switchesSeen{Count: 2, Wait: i64p(86400), Defined: "2@1-00:00:00"}},
		"no wait at all":                {args: []string{"--switches=1@0"}, want: switchesSeen{Count: 1, Wait: i64p(0), Defined: "1@00:00:00"}},
		"an unreadable wait":            {args: []string{"--switches=1@x"}, want: switchesSeen{Count: 1, Defined: "1@INVALID"}},
		"an empty wait":                 {args: []string{"--switches=1@"}, want: switchesSeen{Count: 1, Defined: "1@INVALID"}},
		"an unlimited wait":             {args: []string{"--switches=1@-1"}, want: switchesSeen{Count: 1, Defined: "1"}},
		"zero":                          {args: []string{"--switches=0"}, want: bad("0")},
		"negative":                      {args: []string{"--switches=-1"}, want: bad("-1")},
		"text":                          {args: []string{"--switches=x"}, want: bad("x")},
		"text after the count":          {args: []string{"--switches=2x"}, want: bad("2x")},
		"zero with a wait":              {args: []string{"--switches=0@10"}, want: bad("0")},
		"the count variable":            {env: []string{"SBATCH_REQ_SWITCH=2"}, want: switchesSeen{Count: 2}},
		"the count variable is a count": {env: []string{"SBATCH_REQ_SWITCH=2@1"}, want: bad("2@1")},
		"a zero count variable":         {env: []string{"SBATCH_REQ_SWITCH=0"}, want: bad("0")},
		"both variables":                {env: []string{"SBATCH_REQ_SWITCH=2", "SBATCH_WAIT4SWITCH=1"}, want: switchesSeen{Count: 2, Wait: i64p(60)}},
		"the wait variable alone":       {env: []string{"SBATCH_WAIT4SWITCH=1"}, want: switchesSeen{Wait: i64p(60)}},
		"an unreadable wait variable": {env: []string{"SBATCH_REQ_SWITCH=3", "SBATCH_WAIT4SWITCH=x"},
			want: switchesSeen{Count: 3}},
		"the wait variable with the option": {env: []string{"SBATCH_WAIT4SWITCH=2"}, args: []string{"--switches=3"},
			want: switchesSeen{Count: 3, Wait: i64p(120), Defined: "3@00:02:00"}},
		"the option beats the variables": {env: []string{"SBATCH_REQ_SWITCH=4", "SBATCH_WAIT4SWITCH=2"}, args: []string{"--switches=1@5"},
			want: switchesSeen{Count: 1, Wait: i64p(300), Defined: "1@00:05:00"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := parseSwitches(t, tc.env, append([]string{"-v"}, tc.args...))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func parseSwitches(t *testing.T, env, args []string) switchesSeen {
	t.Helper()
	res, err := submit(t, append([]string{"HOME=/home/u"}, env...), "#!/bin/sh\n", append(args, "job.sh")...)
	var je *Error
	if errors.As(err, &je) {
		return switchesSeen{Err: je.Lines, Code: je.Code}
	}
	if err != nil {
		t.Fatal(err)
	}
	got := switchesSeen{Count: res.Request.Switches, Wait: res.Request.SwitchWait}
	for _, d := range res.Defined {
		if d.Name == "switches" {
			got.Defined = d.Value
		}
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, "switches") {
			got.Warnings = append(got.Warnings, w)
		}
	}
	return got
}

// TestSwitchesStepAndSalloc: srun (for a new allocation, and silently
// inside one, as the peer's does) and salloc read --switches and their
// own variables, with no "Loam ignores" warning; the count is checked the
// same way.
func TestSwitchesStepAndSalloc(t *testing.T) {
	type seen struct {
		Count    int
		Wait     *int64
		Warnings []string
		Err      []string
	}
	tests := map[string]struct {
		salloc bool
		env    []string
		args   []string
		want   seen
	}{
		"srun":                {args: []string{"--switches=1@3", "true"}, want: seen{Count: 1, Wait: i64p(180)}},
		"srun inside a job":   {env: []string{"SLURM_JOB_ID=7"}, args: []string{"--switches=1", "true"}, want: seen{Count: 1}},
		"srun refuses zero":   {args: []string{"--switches=0", "true"}, want: seen{Err: []string{`srun: error: Invalid numeric value "0" for --switches.`}}},
		"srun's variables":    {env: []string{"SLURM_REQ_SWITCH=2", "SLURM_WAIT4SWITCH=0:30"}, args: []string{"true"}, want: seen{Count: 2, Wait: i64p(30)}},
		"salloc":              {salloc: true, args: []string{"--switches=2@1"}, want: seen{Count: 2, Wait: i64p(60)}},
		"salloc refuses zero": {salloc: true, args: []string{"--switches=0"}, want: seen{Err: []string{`salloc: error: Invalid numeric value "0" for --switches.`}}},
		"salloc's variables":  {salloc: true, env: []string{"SALLOC_REQ_SWITCH=3", "SALLOC_WAIT4SWITCH=2"}, want: seen{Count: 3, Wait: i64p(120)}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Env: tc.env, Cwd: "/home/u", Now: testNow, Host: "login1"}
			parse := p.Srun
			if tc.salloc {
				parse = p.Salloc
			}
			res, err := parse(tc.args)
			var got seen
			var je *Error
			switch {
			case errors.As(err, &je):
				got.Err = je.Lines
			case err != nil:
				t.Fatal(err)
			default:
				got = seen{Count: res.Request.Switches, Wait: res.Request.SwitchWait}
				for _, w := range res.Warnings {
					if strings.Contains(w, "switches") {
						got.Warnings = append(got.Warnings, w)
					}
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
