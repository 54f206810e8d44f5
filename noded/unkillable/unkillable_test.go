package unkillable

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestEnv(t *testing.T) {
	want := []string{"SLURM_JOBID=38", "SLURM_JOB_ID=38", "SLURM_STEPID=4294967291", "SLURM_STEP_ID=4294967291"}
	if diff := cmp.Diff(want, Env(38, BatchStep)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestLine: the batch job's line is the peer's, from a job's error file.
func TestLine(t *testing.T) {
	at := time.Date(2026, 11, 30, 12, 9, 11, 0, time.UTC)
	for name, tc := range map[string]struct {
		step uint32
		want string
	}{
		"batch script": {BatchStep, "slurmstepd-cpu007: error: *** JOB 38 STEPD TERMINATED ON cpu007 AT 2026-11-30T12:09:11 DUE TO JOB NOT ENDING WITH SIGNALS ***\n"},
		"allocation":   {ExternStep, "slurmstepd-cpu007: error: *** EXTERN STEP FOR 38 STEPD TERMINATED ON cpu007 AT 2026-11-30T12:09:11 DUE TO JOB NOT ENDING WITH SIGNALS ***\n"},
		"srun step":    {2, "slurmstepd-cpu007: error: *** STEP 38.2 STEPD TERMINATED ON cpu007 AT 2026-11-30T12:09:11 DUE TO JOB NOT ENDING WITH SIGNALS ***\n"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := Line("cpu007", 38, tc.step, at); got != tc.want {
				t.Errorf("Line = %q, want %q", got, tc.want)
			}
		})
	}
}

func writeProgram(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "unkillable.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunGivesTheProgramSlurmstepdsEnvironment(t *testing.T) {
	out := filepath.Join(t.TempDir(), "env")
	prog := writeProgram(t, "/usr/bin/env > "+out+"\n")
	if err := Run(context.Background(), prog, 7, 3, time.Minute); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(string(data))
	// The shell may add PWD and the like; slurmstepd's four must be there.
	for _, w := range Env(7, 3) {
		if !strings.Contains(string(data), w+"\n") {
			t.Errorf("environment %v lacks %s", got, w)
		}
	}
	if strings.Contains(string(data), "PATH=/") {
		t.Errorf("environment %v has the daemon's PATH; slurmstepd passes none", got)
	}
}

func TestRunKillsAProgramPastItsLimit(t *testing.T) {
	prog := writeProgram(t, "sleep 60 & wait\n")
	start := time.Now()
	if err := Run(context.Background(), prog, 7, BatchStep, 200*time.Millisecond); err == nil {
		t.Error("a program past its limit: no error")
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("Run returned after %v: the process group was not killed", took)
	}
}

func TestRunSkipsWhatIsNotExecutable(t *testing.T) {
	for name, prog := range map[string]string{"none": "", "missing": "/nonexistent/unkillable"} {
		if err := Run(context.Background(), prog, 7, BatchStep, time.Minute); err != nil {
			t.Errorf("%s: %v, want skipped", name, err)
		}
	}
}

type boundRecorder struct{ set []time.Duration }

func (b *boundRecorder) SetKillTimeout(d time.Duration) { b.set = append(b.set, d) }

// TestBound: a Spec bounds kills at its timeout and a second; a nil one
// (an older launch record) leaves the default; something that cannot be
// bounded is left alone.
func TestBound(t *testing.T) {
	var b boundRecorder
	(&Spec{Timeout: 60 * time.Second}).Bound(&b)
	var none *Spec
	none.Bound(&b)
	(&Spec{Timeout: time.Second}).Bound(struct{}{})
	if diff := cmp.Diff([]time.Duration{61 * time.Second}, b.set); diff != "" {
		t.Errorf("kill bounds set (-want +got):\n%s", diff)
	}
}
