package usage

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// The test binary doubles as a task: with LOAM_USAGE_CHILD=BURN_MS,MIB it
// waits for a byte on its standard input, touches MIB MiB of memory,
// burns BURN_MS of CPU, then waits for its standard input to close.
func TestMain(m *testing.M) {
	if v := os.Getenv("LOAM_USAGE_CHILD"); v != "" {
		child(v)
		return
	}
	os.Exit(m.Run())
}

var sink []byte

func child(spec string) {
	var burn, mib int
	if _, err := fmt.Sscanf(spec, "%d,%d", &burn, &mib); err != nil {
		os.Exit(2)
	}
	buf := make([]byte, 1)
	if _, err := os.Stdin.Read(buf); err != nil {
		os.Exit(3)
	}
	sink = make([]byte, mib<<20)
	for i := 0; i < len(sink); i += 4096 {
		sink[i] = 1
	}
	var r syscall.Rusage
	for {
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &r)
		if tvUsec(r.Utime)+tvUsec(r.Stime) >= int64(burn)*1000 {
			break
		}
	}
	_, _ = os.Stdout.Write([]byte("d")) // done: the parent may measure
	_, _ = os.Stdin.Read(buf)           // until the parent closes it
}

// waitDone waits until the child says it finished its work.
func waitDone(t *testing.T, out io.Reader) {
	t.Helper()
	if _, err := io.ReadFull(out, make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
}

// startChild runs the test binary as a task; a byte written to the
// returned writer starts its work, closing it lets it exit; the reader
// gives a byte once the work is done.
func startChild(t *testing.T, burnMs, mib int) (*exec.Cmd, *os.File, io.Reader) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), "LOAM_USAGE_CHILD="+strconv.Itoa(burnMs)+","+strconv.Itoa(mib))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd, in.(*os.File), out
}

func start(t *testing.T, in *os.File) {
	t.Helper()
	if _, err := in.Write([]byte("g")); err != nil {
		t.Fatal(err)
	}
}

// TestFromStateMeasuresAReapedTask: a task that burned 300 ms and touched
// 40 MiB shows at least that, and not wildly more.
func TestFromStateMeasuresAReapedTask(t *testing.T) {
	cmd, in, _ := startChild(t, 300, 40)
	start(t, in)
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	u := FromState(3, cmd.ProcessState)
	if u.Task != 3 {
		t.Errorf("task %d, want 3", u.Task)
	}
	if cpu := u.CPUUsec(); cpu < 300_000 || cpu > 5_000_000 {
		t.Errorf("CPU %d µs, want 300 ms to 5 s", cpu)
	}
	if u.MaxRSS < 40<<20 || u.MaxRSS > 400<<20 {
		t.Errorf("max RSS %d bytes, want 40 MiB to 400 MiB", u.MaxRSS)
	}
}

func TestFromStateOfATaskThatNeverRan(t *testing.T) {
	if diff := cmp.Diff(api.TaskUsage{Task: 2}, FromState(2, nil)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestLiveMeasuresARunningTask: /proc shows the running task's CPU time
// and resident size, under its session's task.
func TestLiveMeasuresARunningTask(t *testing.T) {
	cmd, in, out := startChild(t, 200, 30)
	defer in.Close()
	start(t, in)
	waitDone(t, out)
	n := Live("n1", []int{cmd.Process.Pid}, func(sid int) int {
		if sid != cmd.Process.Pid {
			t.Errorf("session %d, want the child's own %d", sid, cmd.Process.Pid)
		}
		return 5
	})
	if len(n.Tasks) != 1 {
		t.Fatalf("got %+v, want one task", n)
	}
	// /proc counts clock ticks: allow some short of the 200 ms.
	if cpu := n.Tasks[0].CPUUsec(); cpu < 150_000 {
		t.Errorf("CPU %d µs, want about 200 ms", cpu)
	}
	tk := n.Tasks[0]
	if tk.Task != 5 || n.Node != "n1" || len(tk.Pids) != 1 || tk.Pids[0] != cmd.Process.Pid {
		t.Errorf("got %+v", n)
	}
	if tk.MaxRSS < 30<<20 || tk.MaxVM < tk.MaxRSS {
		t.Errorf("RSS %d, VM %d: want RSS >= 30 MiB and VM >= RSS", tk.MaxRSS, tk.MaxVM)
	}
}

func TestLiveSkipsProcessesThatEnded(t *testing.T) {
	n := Live("n1", []int{1 << 30}, func(int) int { return 0 })
	if len(n.Tasks) != 0 {
		t.Errorf("got %+v, want no tasks", n)
	}
}

func TestParseStat(t *testing.T) {
	page := int64(os.Getpagesize())
	tests := map[string]struct {
		line    string
		want    proc
		wantErr bool
	}{
		"a name with blanks and parentheses": {
			line: "42 (a (b) c) S 1 40 41 0 -1 4194560 100 0 7 0 150 25 10 5 20 0 1 0 100 8192000 300 18446744073709551615",
			want: proc{pid: 42, session: 41, userUsec: 1_600_000, sysUsec: 300_000, cpuUsec: 1_900_000, vm: 8192000, rss: 300 * page,
				majflt: 7},
		},
		"no closing parenthesis": {line: "42 (abc S 1", wantErr: true},
		"too few fields":         {line: "42 (abc) S 1 2 3", wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := parseStat(42, []byte(tc.line))
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(proc{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParseStat(f *testing.F) {
	f.Add([]byte("1 (init) S 0 1 1 0 -1 4194560 100 0 0 0 150 25 10 5 20 0 1 0 100 8192000 300"))
	f.Add([]byte("7 ()) R"))
	f.Fuzz(func(t *testing.T, data []byte) { _, _ = parseStat(1, data) })
}

func TestMergeTasksFoldsSessionsOfOneTask(t *testing.T) {
	n := api.NodeUsage{Tasks: []api.TaskUsage{
		{Task: 1, UserUsec: 10, MaxRSS: 100, Pids: []int{9}},
		{Task: 0, UserUsec: 1, Pids: []int{3}},
		{Task: 1, UserUsec: 5, MaxRSS: 50, Pids: []int{4}},
	}}
	want := []api.TaskUsage{
		{Task: 0, UserUsec: 1, Pids: []int{3}},
		{Task: 1, UserUsec: 15, MaxRSS: 150, Pids: []int{4, 9}},
	}
	if diff := cmp.Diff(want, mergeTasks(n).Tasks); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSessionTaskReadsSLURMPROCID(t *testing.T) {
	old := ProcRoot
	t.Cleanup(func() { ProcRoot = old })
	ProcRoot = t.TempDir()
	if err := os.MkdirAll(filepath.Join(ProcRoot, "77"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := "PATH=/bin\x00SLURM_PROCID=6\x00HOME=/\x00"
	if err := os.WriteFile(filepath.Join(ProcRoot, "77", "environ"), []byte(env), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := SessionTask(77, -1); got != 6 {
		t.Errorf("task %d, want 6", got)
	}
	if got := SessionTask(78, -1); got != -1 {
		t.Errorf("unreadable session: task %d, want the default -1", got)
	}
}

func TestStepFilesRoundTrip(t *testing.T) {
	job := t.TempDir()
	for _, id := range []string{"step_10", "step_2", "step_3", "other"} {
		if err := os.Mkdir(filepath.Join(job, id), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	n2 := api.NodeUsage{Node: "n1", MemPeak: 1 << 20, Tasks: []api.TaskUsage{{Task: 0, UserUsec: 5, MaxRSS: 4096}}}
	n10 := api.NodeUsage{Node: "n1", Tasks: []api.TaskUsage{{Task: 1, SysUsec: 7}}}
	for dir, n := range map[string]api.NodeUsage{"step_2": n2, "step_10": n10} {
		if err := WriteStep(filepath.Join(job, dir), n); err != nil {
			t.Fatal(err)
		}
	}
	got, err := CollectSteps(job)
	if err != nil {
		t.Fatal(err)
	}
	want := []api.StepNodeUsage{{StepID: 2, Usage: n2}, {StepID: 10, Usage: n10}} // step 3 has none yet
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestMemPeakReadsV1ThenV2(t *testing.T) {
	old := CgroupRoot
	t.Cleanup(func() { CgroupRoot = old })
	CgroupRoot = t.TempDir()
	write := func(path, v string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := MemPeak("loam/n1/job_1"); got != 0 {
		t.Errorf("no files: %d, want 0", got)
	}
	write(filepath.Join(CgroupRoot, "loam/n1/job_1/memory.peak"), "2048\n")
	if got := MemPeak("loam/n1/job_1"); got != 2048 {
		t.Errorf("v2: %d, want 2048", got)
	}
	write(filepath.Join(CgroupRoot, "memory/loam/n1/job_1/memory.max_usage_in_bytes"), "4096\n")
	if got := MemPeak("loam/n1/job_1"); got != 4096 {
		t.Errorf("v1: %d, want 4096", got)
	}
}
