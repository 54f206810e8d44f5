package job

import (
	"strconv"
	"strings"
	"testing"
)

// depPeerCase is one --dependency spec and scontrol's Dependency= for it.
// {A} stands for a held ordinary job, {B} for a held array job 0-3; the
// test puts fixed ids in their place.
type depPeerCase struct {
	Spec       string `json:"spec"`
	Accepted   bool   `json:"accepted"`
	Stderr     string `json:"stderr,omitempty"`
	Dependency string `json:"dependency,omitempty"`
}

var depSpecs = []string{
	"afterok:{A}", "after:{A}+5", "afterany:{A}:{B}", "afterok:{A},afternotok:{B}",
	"afterok:{A}?afterany:{B}", "aftercorr:{B}", "afterok:{B}_2", "afterok:{B}_[1-2]",
	"singleton", "singleton,afterok:{A}", "{A}", "{A},{B}", "AFTEROK:{A}",
	"afterok:{A}(failed)", "afterok:{A}+0", "afterok:-5", "afterok:+{A}",
	"afterok: {A}", "afterok:{A}:", "afterok:", "afterok:0", "after:{A}+abc",
	"afterburstbuffer:{A}", "afterburstbXYZ:{A}", "afterok:{A}?singleton",
	"afterok:{B}_*", "afterok:{B}_99", "afterok:{A},", "bad", "afterok:abc",
	"afterok:{A}+5x", "afterok:{A}x", "afterok:{A}(foo)", "afterok:{A}(failed)x",
	"singletonx", "singleton(failed)", "{A}?{A}", "{A},afterok:{A}",
	"afterok:{A},{A}", "afterok:{A}_1_2", "afterok:{A}_-1", "afterok:{A}: {A}",
	"SINGLETON", "afterok:{B}_[1-2]x", "afterok:{B}_[]", "afterok:{B}_[2-1]",
	"afterok:{A}:{A}", "afterany:{A}+10:{B}_1", "afterok:{A}?afterok:{B},afterany:{A}",
	"after:{A}(unfulfilled)", "afterok:{B}_[0,2-3]",
}

// Fixed ids the tests use for {A} and {B}.
const depJobA, depJobB = 41, 42

func TestCaptureDependencyPeer(t *testing.T) {
	if !*peer {
		t.Skip("needs -peer and a running Slurm")
	}
	a, _, _ := sbatchRun(t, "--hold", "--parsable", "--wrap=true")
	b, _, _ := sbatchRun(t, "--hold", "--parsable", "--array=0-3", "--wrap=true")
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	fill := strings.NewReplacer("{A}", a, "{B}", b)
	// Put the longer id first so that neither is a prefix of the other.
	unfill := strings.NewReplacer(b, "{B}", a, "{A}")
	if len(a) > len(b) {
		unfill = strings.NewReplacer(a, "{A}", b, "{B}")
	}
	var cases []depPeerCase
	for _, spec := range depSpecs {
		out, errOut, code := sbatchRun(t, "--hold", "--dependency="+fill.Replace(spec), "--wrap=true")
		c := depPeerCase{Spec: spec, Accepted: code == 0, Stderr: errOut}
		if code == 0 {
			c.Dependency = unfill.Replace(showJob(t, out)["Dependency"])
		}
		cases = append(cases, c)
	}
	scancel(a, b)
	writeJSON(t, "testdata/dependency_peer.json", cases)
}

func TestDependencyAgainstPeer(t *testing.T) {
	var cases []depPeerCase
	readJSON(t, "testdata/dependency_peer.json", &cases)
	if len(cases) < len(depSpecs) {
		t.Fatalf("testdata/dependency_peer.json has %d cases, want %d: rerun with -peer", len(cases), len(depSpecs))
	}
	fill := strings.NewReplacer("{A}", strconv.Itoa(depJobA), "{B}", strconv.Itoa(depJobB))
	for _, tc := range cases {
		d, err := ParseDependency(fill.Replace(tc.Spec))
		switch {
		case !tc.Accepted:
			if err == nil {
				t.Errorf("ParseDependency(%q) = %q, want error (Slurm: %s)", tc.Spec, d, strings.TrimSpace(tc.Stderr))
			}
		case err != nil:
			t.Errorf("ParseDependency(%q): %v, want %q", tc.Spec, err, tc.Dependency)
		default:
			markArrayJob(d, depJobB)
			if got, want := d.String(), fill.Replace(tc.Dependency); got != want {
				t.Errorf("ParseDependency(%q) prints %q, want %q", tc.Spec, got, want)
			}
		}
	}
}

// markArrayJob does what the controller does when a plain id names an array
// job: the condition covers every task ("_*").
func markArrayJob(d *Dependency, arrayJobID uint32) {
	for i := range d.Deps {
		if d.Deps[i].JobID == arrayJobID && d.Deps[i].Task == NoTask {
			d.Deps[i].Task = AllTasks
		}
	}
}
