package command

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
)

// TestShownStdioPeer checks StdOut= (scontrol) and StdOut (squeue) against
// the peer's words for every pattern of testdata/peer/scontrol-stdio.txt
// (capture-scontrol-stdio.sh): scontrol expands %A %a %j %u %x only,
// squeue prints the pattern as written.
func TestShownStdioPeer(t *testing.T) {
	f, err := os.Open("testdata/peer/scontrol-stdio.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		col := strings.Split(sc.Text(), "\t")
		if len(col) != 4 {
			t.Fatalf("bad golden line %q", sc.Text())
		}
		id, err := strconv.ParseUint(col[1], 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		j := &api.Job{JobID: uint32(id), Name: "nm", UserName: "root", BatchFlag: true, StdOut: col[0]}
		if got := shownStdio(stdOutPath(j), j); got != col[2] {
			t.Errorf("%s: scontrol StdOut=%q, peer %q", col[0], got, col[2])
		}
		if got := stdOutPath(j); got != col[3] {
			t.Errorf("%s: squeue StdOut %q, peer %q", col[0], got, col[3])
		}
		n++
	}
	if n < 30 {
		t.Fatalf("only %d golden lines", n)
	}
}

// TestShownStdioArray checks %A and %a on an array's records as the peer
// printed them (array 17584, tasks 1-3, -o 'x-%A_%a-%j').
func TestShownStdioArray(t *testing.T) {
	two, one := 2, 1
	cases := map[string]struct {
		job  api.Job
		want string
	}{
		"the pending array's record": {
			api.Job{JobID: 17584, ArrayJobID: 17584, ArrayTaskString: "1-3"}, "x-17584_4294967294-17584"},
		"a started task": {
			api.Job{JobID: 17586, ArrayJobID: 17584, ArrayTaskID: &one}, "x-17584_1-17586"},
		"a task shown from the pending record": {
			api.Job{JobID: 17584, ArrayJobID: 17584, ArrayTaskID: &two}, "x-17584_2-17584"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, shownStdio("x-%A_%a-%j", &c.job)); diff != "" {
				t.Errorf("StdOut= (-want +got):\n%s", diff)
			}
		})
	}
}

// TestShownStdioTaskView checks that "show job 17584_2" of a pending
// array prints the task's %a, as the peer does.
func TestShownStdioTaskView(t *testing.T) {
	j := &api.Job{JobID: 17584, ArrayJobID: 17584, ArrayTaskString: "1-3", StdOut: "/w/x-%A_%a-%j", BatchFlag: true}
	v, ok := taskView(j, 2)
	if !ok {
		t.Fatal("task 2 not in view")
	}
	if diff := cmp.Diff("/w/x-17584_2-17584", shownStdio(stdOutPath(v), v)); diff != "" {
		t.Errorf("StdOut= (-want +got):\n%s", diff)
	}
}

// peerPatterns turns the default output names the peer's scontrol printed
// expanded back into the patterns the controller carries (scontrol expands
// them again as it prints).
func peerPatterns(j *api.Job) {
	id := strconv.FormatUint(uint64(j.JobID), 10)
	names := map[string]string{"slurm-" + id + ".out": "slurm-%j.out"}
	if j.ArrayJobID != 0 {
		aid := strconv.FormatUint(uint64(j.ArrayJobID), 10)
		names["slurm-"+aid+"_"+strconv.Itoa(api.NoArrayTask)+".out"] = "slurm-%A_%a.out"
		if j.ArrayTaskID != nil {
			names["slurm-"+aid+"_"+strconv.Itoa(*j.ArrayTaskID)+".out"] = "slurm-%A_%a.out"
		}
	}
	for _, p := range []*string{&j.StdOut, &j.StdErr} {
		dir, base := filepath.Split(*p)
		if pat, ok := names[base]; ok {
			*p = dir + pat
		}
	}
}
