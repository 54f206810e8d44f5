package fname

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestPeerGolden replays every pattern the peer's slurmd expanded
// (testdata/capture.sh) with the same inputs.
func TestPeerGolden(t *testing.T) {
	f, err := os.Open("testdata/patterns.golden")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 5 {
			t.Fatalf("bad golden line %q", sc.Text())
		}
		pattern, want := cols[0], cols[4]
		v := Vars{JobID: atou(t, cols[1]), User: "root", JobName: "nm", Host: "vm", Step: "batch"}
		if cols[2] != "-" {
			v.ArrayJobID = atou(t, cols[2])
			task := int(atou(t, cols[3]))
			v.ArrayTaskID = &task
		}
		if got := Expand(pattern, v); got != want {
			t.Errorf("Expand(%q) = %q, want %q (peer)", pattern, got, want)
		}
		n++
	}
	if err := sc.Err(); err != nil || n < 40 {
		t.Fatalf("read %d golden lines: %v", n, err)
	}
}

func atou(t *testing.T, s string) uint32 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		t.Fatalf("golden number %q: %v", s, err)
	}
	return uint32(n)
}

func TestPath(t *testing.T) {
	task := 3
	tests := map[string]struct {
		pattern string
		v       Vars
		want    string
	}{
		"default output":          {v: Vars{JobID: 17}, want: "/home/u/slurm-17.out"},
		"default array output":    {v: Vars{JobID: 19, ArrayJobID: 17, ArrayTaskID: &task}, want: "/home/u/slurm-17_3.out"},
		"relative to the workdir": {pattern: "logs/%x-%j.log", v: Vars{JobID: 5, JobName: "train"}, want: "/home/u/logs/train-5.log"},
		"absolute stays":          {pattern: "/scratch/%u/%j", v: Vars{JobID: 5, User: "alice"}, want: "/scratch/alice/5"},
		"step in %J":              {pattern: "%J", v: Vars{JobID: 5, Step: "0"}, want: "/home/u/5.0"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Path(tc.pattern, "/home/u", tc.v); got != tc.want {
				t.Errorf("Path(%q) = %q, want %q", tc.pattern, got, tc.want)
			}
		})
	}
}

func FuzzExpand(f *testing.F) {
	for _, s := range []string{"%j", "%5j", "%%", "%", "%12j%", `\%j`, "%3q", "a%b%c%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		task := 1
		got := Expand(pattern, Vars{JobID: 7, ArrayJobID: 6, ArrayTaskID: &task, User: "u", JobName: "n", Host: "h", Step: "batch"})
		if !strings.Contains(pattern, "%") && !strings.Contains(pattern, `\`) && got != pattern {
			t.Errorf("Expand(%q) = %q: a pattern without %% or \\ must stay as is", pattern, got)
		}
	})
}
