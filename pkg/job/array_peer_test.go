package job

import (
	"strconv"
	"strings"
	"testing"
)

// arrayPeerCase is one --array spec and what the peer's slurmctld made of
// it (MaxArraySize=10001 there).
type arrayPeerCase struct {
	Spec     string `json:"spec"`
	Accepted bool   `json:"accepted"`
	Stderr   string `json:"stderr,omitempty"`
	TaskIDs  string `json:"array_task_id,omitempty"` // scontrol ArrayTaskId
	Throttle string `json:"array_task_throttle,omitempty"`
}

const peerMaxArraySize = 10001

var arraySpecs = []string{
	"0-31", "1,3,5", "1-7:2", "0-15%4", "500-17000:1000%26", "500-9500:1000%26",
	"3,1,2", "1-3,2-4", "5", "0-10000", "0-10000%0", "1-7:0", "7-1", "1-8:3",
	"0-3,10-12:2%3", "-1", "1,,2", "1-", "a", "1-5%", "4294967294", "10001",
	"10000", "1:2", "%5", " 1-3", "1-3 ", "0x10", "+5", "1-3:2:2", ",", ",,5",
	"[1-3]", "1-3]", "[1-3", "1-5:2%3,8", "2%3,5%1", "1-3:0x", "0-9999:10000",
	"0-9999:9999", "1-3%abc", "99999999999999999999", "0-60:2,63", "1-41:2",
	"0-100,200-300,400-500,600-700,800-900,1000-1100,1200-1300,1400-1500,1600-1700",
	"0-99,201-300,402-500,603-700,804-900,1005-1100,1206-1300,1407-1500%7",
	"0-6:3,9-12:3", "0-20:4,21", "100-110:2", "100-111:2",
}

func TestCaptureArrayPeer(t *testing.T) {
	if !*peer {
		t.Skip("needs -peer and a running Slurm")
	}
	var cases []arrayPeerCase
	for _, spec := range arraySpecs {
		out, errOut, code := sbatchRun(t, "--hold", "--array="+spec, "--wrap=true")
		c := arrayPeerCase{Spec: spec, Accepted: code == 0, Stderr: errOut}
		if code == 0 {
			f := showJob(t, out)
			c.TaskIDs, c.Throttle = f["ArrayTaskId"], f["ArrayTaskThrottle"]
		}
		cases = append(cases, c)
	}
	writeJSON(t, "testdata/array_peer.json", cases)
}

func TestArrayAgainstPeer(t *testing.T) {
	var cases []arrayPeerCase
	readJSON(t, "testdata/array_peer.json", &cases)
	if len(cases) < len(arraySpecs) {
		t.Fatalf("testdata/array_peer.json has %d cases, want %d: rerun with -peer", len(cases), len(arraySpecs))
	}
	for _, tc := range cases {
		a, err := ParseArray(tc.Spec, peerMaxArraySize)
		switch {
		case !tc.Accepted:
			if err == nil {
				t.Errorf("ParseArray(%q) = %v, want error (Slurm: %s)", tc.Spec, a, strings.TrimSpace(tc.Stderr))
			}
		case err != nil:
			t.Errorf("ParseArray(%q): %v, want %q", tc.Spec, err, tc.TaskIDs)
		case tc.TaskIDs == "":
			// Slurm accepted the spec but made an ordinary job of it.
			if a.Count() != 0 {
				t.Errorf("ParseArray(%q) = %q, want no tasks", tc.Spec, a)
			}
		case a.Display() != tc.TaskIDs:
			t.Errorf("ParseArray(%q).Display() = %q, want %q", tc.Spec, a.Display(), tc.TaskIDs)
		case tc.Throttle != "" && strconv.Itoa(a.Throttle()) != tc.Throttle:
			t.Errorf("ParseArray(%q).Throttle() = %d, want %s", tc.Spec, a.Throttle(), tc.Throttle)
		}
	}
}
