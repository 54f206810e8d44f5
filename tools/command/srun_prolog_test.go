package command

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/jobopt"
)

func TestPickSrunScript(t *testing.T) {
	tests := map[string]struct{ opt, conf, want string }{
		"slurm.conf's when no option": {"", "/etc/sp", "/etc/sp"},
		"the option overrides":        {"/home/p", "/etc/sp", "/home/p"},
		"none runs nothing":           {"none", "/etc/sp", ""},
		"NONE in any case":            {"NONE", "/etc/sp", ""},
		"neither":                     {"", "", ""},
	}
	for name, tc := range tests {
		if got := pickSrunScript(tc.opt, tc.conf); got != tc.want {
			t.Errorf("%s: %q, want %q", name, got, tc.want)
		}
	}
}

func srunScriptFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSrunPrologFails: the peer's srun with a SrunProlog exiting 5 says
// "srun: error: srun prolog failed rc = 5. Aborting step." and exits 1;
// its SrunEpilog still runs. Both get the step's command as arguments
// and the job's id.
func TestSrunPrologFails(t *testing.T) {
	prolog := srunScriptFile(t, `echo "p $SLURM_SCRIPT_CONTEXT $SLURM_JOB_ID $*"; exit 5`+"\n")
	epilog := srunScriptFile(t, `echo "e $SLURM_SCRIPT_CONTEXT $*"`+"\n")
	old := srunConfScripts
	srunConfScripts = func() (string, string) { return prolog, epilog }
	defer func() { srunConfScripts = old }()
	runSrunCase(t, srunCase{env: insideJobEnv, args: []string{"hostname", "-s"}, layout: twoNodes,
		wantCode:   1,
		wantStdout: "p prolog_srun 12 hostname -s\ne epilog_srun hostname -s\n",
		wantStderr: "srun: error: srun prolog failed rc = 5. Aborting step.\n"})
}

// TestSrunPrologNoneOverrides: --prolog=none leaves slurm.conf's failing
// prolog out.
func TestSrunPrologNoneOverrides(t *testing.T) {
	old := srunConfScripts
	srunConfScripts = func() (string, string) { return srunScriptFile(t, "exit 5\n"), "" }
	defer func() { srunConfScripts = old }()
	r := &srunRun{res: &jobopt.StepResult{}}
	r.res.Step.Prolog = "none"
	if epilog, code := r.srunScripts(); epilog != "" || code != 0 {
		t.Errorf("epilog %q, code %d; want none and 0", epilog, code)
	}
}

func TestRunScriptBoundedKillsAtTimeout(t *testing.T) {
	p := srunScriptFile(t, "sleep 300 & sleep 300\n")
	var out bytes.Buffer
	start := time.Now()
	if rc := runScriptBounded(p, nil, nil, "", &out, &out, 200*time.Millisecond); rc == 0 {
		t.Error("a killed script reported success")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %s", took)
	}
}
