package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestRobustCorruptSpool starts a daemon on a state directory a crash left
// damaged: half-written records in several job directories, a corrupt
// event in a done directory and a garbage acknowledgement file. The daemon
// starts, moves each bad record aside (logging it), reports every job's end
// from what is left (failed when nothing is), and reports the healthy job
// as it ended.
func TestRobustCorruptSpool(t *testing.T) {
	needRoot(t)
	cl := newCluster(t)
	root := cl.Nodes[0].Spool
	start := spool.Start{Time: time.Now().Add(-time.Minute).Truncate(time.Second), Pid: 1}
	result := func(status int) api.JobEvent {
		return api.JobEvent{Kind: api.EventEnded, Time: time.Now().Unix(), ExitCode: job.ExitCode{Status: status}}
	}
	const half = `{"kind":"ended","exit_co` // a record cut short by the crash
	jobs := map[uint32]map[string]any{
		61: {spool.LaunchFile: half},
		62: {spool.StartFile: start, spool.StartedEvent: half, spool.ResultFile: result(3)},
		63: {spool.StartFile: start, spool.ResultFile: "\x00\x00\x00\x00"},
		64: {spool.StartFile: start, spool.ResultFile: result(4), spool.EndedEvent: half},
		65: {spool.StartFile: start, spool.ResultFile: result(5)},
		66: {spool.StartFile: "garbage", spool.ResultFile: result(6)},
	}
	for id, files := range jobs {
		writeSpool(t, filepath.Join(root, "jobs", strconv.FormatUint(uint64(id), 10)), files)
	}
	writeSpool(t, filepath.Join(root, "done", "123"), map[string]any{spool.EndedEvent: half})
	writeSpool(t, root, map[string]any{"acked": "not a number\n"})

	var hook *logtest.Hook
	h := startAgentWith(t, cl, func(a *Agent) { hook = logtest.NewLocal(a.log.Logger) })
	want := map[uint32]struct {
		kind api.JobEventKind
		code job.ExitCode
	}{
		61: {api.EventLaunchFailed, job.ExitCode{Signal: 53}},
		62: {api.EventEnded, job.ExitCode{Status: 3}},
		63: {api.EventEnded, job.ExitCode{Signal: 9}},
		64: {api.EventEnded, job.ExitCode{Status: 4}},
		65: {api.EventEnded, job.ExitCode{Status: 5}},
		66: {api.EventEnded, job.ExitCode{Status: 6}},
	}
	for id, w := range want {
		if ev := h.ended(id); ev.Kind != w.kind || ev.ExitCode != w.code {
			t.Errorf("job %d ended %s %s, want %s %s", id, ev.Kind, ev.ExitCode, w.kind, w.code)
		}
	}
	if !cl.Ctld.Started(62) {
		t.Error("job 62's start, whose event was corrupt, was not reported again")
	}
	logged := map[string]bool{}
	for _, e := range hook.AllEntries() {
		if f, ok := e.Data["file"].(string); ok && e.Level == logrus.ErrorLevel {
			logged[strings.TrimPrefix(f, root+"/")] = true
		}
	}
	for _, p := range []string{"done/123/" + spool.EndedEvent, "jobs/62/" + spool.StartedEvent, "jobs/63/" + spool.ResultFile, "jobs/64/" + spool.EndedEvent, "jobs/66/" + spool.StartFile} {
		if !logged[p] {
			t.Errorf("corrupt %s was not logged; logged %v", p, logged)
		}
	}
}

// writeSpool writes files into dir: strings as they are, other values as
// JSON.
func writeSpool(t *testing.T, dir string, files map[string]any) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, v := range files {
		data, ok := v.(string)
		if !ok {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			data = string(b)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
