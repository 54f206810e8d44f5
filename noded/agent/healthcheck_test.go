package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"

	"github.com/loamhpc/loam/pkg/slurmconf"
)

func healthFor(t *testing.T, body string, states slurmconf.HealthCheckState) (*healthChecker, *test.Hook) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "hc.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	log, hook := test.NewNullLogger()
	log.SetLevel(logrus.DebugLevel)
	h := newHealthChecker(slurmconf.Scripts{HealthCheckProgram: p, HealthCheckInterval: time.Minute, HealthCheckStates: states},
		"cpu02", logrus.NewEntry(log))
	return h, hook
}

func TestNewHealthCheckerNeedsProgramAndInterval(t *testing.T) {
	for name, s := range map[string]slurmconf.Scripts{
		"no program":    {HealthCheckInterval: time.Minute},
		"interval zero": {HealthCheckProgram: "/bin/true"},
	} {
		if h := newHealthChecker(s, "n1", logrus.NewEntry(logrus.New())); h != nil {
			t.Errorf("%s: a checker was made", name)
		}
	}
}

// TestHealthCheckRun: the program runs as root with only SLURMD_NODENAME
// set, as slurmd runs it; a failure is logged as the peer's slurmd logs
// it ("error: health_check failed: rc:3 output:sick").
func TestHealthCheckRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "env")
	h, _ := healthFor(t, "env > "+out+"\n", slurmconf.HealthAny)
	if !h.run(context.Background()) {
		t.Fatal("a passing program failed")
	}
	env, _ := os.ReadFile(out)
	var vars []string
	for _, kv := range strings.Fields(string(env)) {
		if name, _, _ := strings.Cut(kv, "="); name != "PWD" && name != "SHLVL" && name != "_" {
			vars = append(vars, kv)
		}
	}
	if diff := cmp.Diff([]string{"SLURMD_NODENAME=cpu02"}, vars); diff != "" {
		t.Errorf("environment (-want +got):\n%s", diff)
	}

	h, hook := healthFor(t, "echo node is sick; exit 3\n", slurmconf.HealthAny)
	if h.run(context.Background()) {
		t.Fatal("a failing program passed")
	}
	e := hook.LastEntry()
	if e == nil || e.Message != "health_check failed: rc:3 output:node is sick" || e.Data["output"] != "node is sick" {
		t.Errorf("log entry %+v, want the status and output", e)
	}
}

// TestHealthCheckTimeout: a program that hangs (with a child holding its
// output) is killed and never hangs the daemon.
func TestHealthCheckTimeout(t *testing.T) {
	h, hook := healthFor(t, "sleep 300 & sleep 300\n", slurmconf.HealthAny)
	h.timeout = 200 * time.Millisecond
	start := time.Now()
	if h.run(context.Background()) {
		t.Fatal("a hung program passed")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %s", took)
	}
	if e := hook.LastEntry(); e == nil || !strings.Contains(e.Message, "killed after") {
		t.Errorf("log entry %+v, want the kill", e)
	}
}

func TestHealthCheckOneRunAtATime(t *testing.T) {
	h, _ := healthFor(t, "exit 0\n", slurmconf.HealthAny)
	h.busy.Store(true)
	if h.run(context.Background()) {
		t.Error("a second run started while one was going")
	}
}

func TestHealthCheckDue(t *testing.T) {
	h, _ := healthFor(t, "", slurmconf.HealthNonDrainedIdle)
	steps := []struct {
		base  string
		drain bool
		want  bool
	}{{"", false, false}, {"IDLE", false, true}, {"IDLE", true, false}, {"MIXED", false, false}}
	for _, st := range steps {
		h.setState(st.base, st.drain)
		if st.base == "" {
			h.base = ""
		}
		if got := h.due(); got != st.want {
			t.Errorf("state %q drain %v: due %v, want %v", st.base, st.drain, got, st.want)
		}
	}
}

// TestHealthCheckNext: runs fall on multiples of the interval on every
// node; CYCLE offsets each node by a fixed share of it.
func TestHealthCheckNext(t *testing.T) {
	now := time.Unix(16_666_667*60+30, 0)
	h, _ := healthFor(t, "", slurmconf.HealthAny)
	if got, want := h.next(now), time.Unix(16_666_668*60, 0); !got.Equal(want) {
		t.Errorf("next %v, want %v", got, want)
	}
	h.states |= slurmconf.HealthCycle
	first := h.next(now)
	if !first.After(now) || first.Sub(now) > time.Minute {
		t.Errorf("cycled next %v is not within one interval of %v", first, now)
	}
	if got := h.next(first); !got.Equal(first.Add(time.Minute)) {
		t.Errorf("the run after %v is %v, want one interval later", first, got)
	}
}
