package jobopt

import (
	"strings"
	"testing"
)

// FuzzCommandLine feeds arbitrary argument vectors (NUL-separated) through
// both passes: errors are fine, panics and hangs are not.
func FuzzCommandLine(f *testing.F) {
	for _, tc := range goldenCases {
		f.Add(strings.Join(tc.Args, "\x00"), tc.Script)
	}
	f.Add("-HWJx\x00--nice\x00--ex\x00--", "#!/bin/sh\n")
	f.Fuzz(func(t *testing.T, argv, script string) {
		checkParse(t, strings.Split(argv, "\x00"), script)
	})
}

// FuzzScript feeds arbitrary scripts through the #SBATCH pass.
func FuzzScript(f *testing.F) {
	for _, tc := range goldenCases {
		if tc.Script != "" {
			f.Add(tc.Script)
		}
	}
	f.Fuzz(func(t *testing.T, script string) {
		checkParse(t, []string{"job.sh"}, script)
	})
}

func checkParse(t *testing.T, args []string, script string) {
	p := &Parser{Env: []string{"PATH=/bin"}, Cwd: "/w", Now: testNow}
	cl, err := p.CommandLine(args)
	if err != nil {
		mustBeError(t, err)
		return
	}
	if cl.Action != Submit {
		return
	}
	res, err := p.Submission(cl, []byte(script))
	if err != nil {
		mustBeError(t, err)
		return
	}
	// -J "" keeps the name empty on purpose, as on the peer (EmptyName).
	if (res.Request.Name == "" && !res.Request.EmptyName) || res.Request.WorkDir == "" {
		t.Fatalf("accepted %q with script %q but no name or work dir: %+v", args, script, res.Request)
	}
}

func mustBeError(t *testing.T, err error) {
	e, ok := err.(*Error)
	if !ok || len(e.Lines) == 0 || (e.Code != ExitClient && e.Code != ExitError) {
		t.Fatalf("error %#v is not an *Error with lines and sbatch's exit status", err)
	}
}
