package supervisor

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoggerWritesJSONLines(t *testing.T) {
	var buf bytes.Buffer
	log := NewLogger(&buf).WithField("job_id", uint32(7))
	log.WithField("pid", 42).Info("job started")
	log.WithError(errors.New("disk \"full\"\n")).Warn("write result")
	log.Error("plain")
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	want := []map[string]any{
		{"job_id": 7.0, "pid": 42.0, "level": "info", "msg": "job started"},
		{"job_id": 7.0, "error": "disk \"full\"\n", "level": "warning", "msg": "write result"},
		{"job_id": 7.0, "level": "error", "msg": "plain"},
	}
	var got []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if ts, _ := m["time"].(string); ts == "" {
			t.Errorf("line %q has no time", l)
		}
		delete(m, "time")
		got = append(got, m)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}
