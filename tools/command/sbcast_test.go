package command

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// fakeSbcast is a controller that grants sbcast for its running jobs,
// and node daemons that keep what they are sent.
type fakeSbcast struct {
	*fakeController
	jobs  map[uint32][]string // running job -> its nodes
	asked []api.SbcastRequest

	files map[string]fakeSource // source files by name

	mu     sync.Mutex
	chunks map[string][]api.SbcastChunk // node -> chunks received
	errno  map[string]int               // node -> errno its first chunk gets
}

type fakeSource struct {
	st   sbcastStat
	data []byte
}

func (f *fakeSbcast) Sbcast(_ context.Context, req *api.SbcastRequest) (*api.SbcastResponse, error) {
	f.asked = append(f.asked, *req)
	nodes, ok := f.jobs[req.JobID]
	if !ok {
		return nil, api.NewError(api.CodeInvalidJobID)
	}
	out := &api.SbcastResponse{JobID: req.JobID, NodeList: strings.Join(nodes, ","), Issued: 1795980220, Expires: 1795980520}
	for _, n := range nodes {
		out.Targets = append(out.Targets, api.SbcastTarget{Node: n, Addr: n + ":1",
			Grant: api.SbcastGrant{Claims: []byte(`{"node":"` + n + `"}`)}})
	}
	return out, nil
}

func (f *fakeSbcast) open(name string) (sbcastSource, error) {
	s, ok := f.files[name]
	if !ok {
		return nil, &os.PathError{Op: "open", Path: name, Err: syscall.ENOENT}
	}
	return &fakeOpen{fakeSource: s}, nil
}

func (f *fakeSbcast) send(_ context.Context, addr string, _ time.Duration, header string, data []byte) (*api.SbcastChunkResponse, error) {
	node := strings.TrimSuffix(addr, ":1")
	meta, err := base64.RawURLEncoding.DecodeString(header)
	if err != nil {
		return nil, err
	}
	c := &api.SbcastChunk{}
	if err := json.Unmarshal(meta, c); err != nil {
		return nil, err
	}
	c.Data = data
	f.mu.Lock()
	defer f.mu.Unlock()
	if n := f.errno[node]; n != 0 {
		return &api.SbcastChunkResponse{Errno: n, Error: strerror(syscall.Errno(n))}, nil
	}
	cp := *c
	cp.Data = slices.Clone(c.Data)
	f.chunks[node] = append(f.chunks[node], cp)
	return &api.SbcastChunkResponse{Written: c.Offset + int64(len(c.Data))}, nil
}

type fakeOpen struct{ fakeSource }

func (o *fakeOpen) ReadAt(p []byte, off int64) (int, error) {
	return bytes.NewReader(o.data).ReadAt(p, off)
}
func (o *fakeOpen) Close() error     { return nil }
func (o *fakeOpen) stat() sbcastStat { return o.st }

// sbcastCaptureDir is where capture.sh ran the peer's sbcast.
const sbcastCaptureDir = "/tmp/sbcast-capture"

func newFakeSbcast() *fakeSbcast {
	at := func(s string) time.Time {
		t, err := time.Parse(time.DateTime, s)
		if err != nil {
			panic(err)
		}
		return t
	}
	src := sbcastStat{mode: 0o100640, atime: at("2026-11-29 20:59:41"), mtime: at("2020-01-02 03:04:05"),
		ctime: at("2026-11-29 20:59:41"), size: 12}
	return &fakeSbcast{fakeController: &fakeController{},
		jobs: map[uint32][]string{7: {"cpu01", "cpu02"}},
		files: map[string]fakeSource{
			"src.txt":   {st: src, data: []byte("hello world\n")},
			"/tmp":      {st: sbcastStat{mode: 0o40777, size: 20480, dir: true}},
			"/dev/null": {st: sbcastStat{mode: 0o20666}},
		},
		chunks: map[string][]api.SbcastChunk{}, errno: map[string]int{}}
}

func runSbcastTest(t *testing.T, f *fakeSbcast, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	te := newTestEnv(f.fakeController, 1795980220)
	te.Cwd = sbcastCaptureDir
	te.Environ = append(te.Environ, env...)
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	code = runSbcast(context.Background(), te.Env, args, f)
	return te.stdout.String(), te.stderr.String(), code
}

// sbcastTimes hides the source's access and change times, which the
// capture could not fix.
var sbcastTimes = regexp.MustCompile(`(?m)^(sbcast: [ac]time    = ).*$`)

// TestSbcastPeer runs every case of testdata/peer/sbcast/cases.txt and
// compares status, output and error with the peer's.
func TestSbcastPeer(t *testing.T) {
	dir := filepath.Join("testdata", "peer", "sbcast")
	cases, err := os.ReadFile(filepath.Join(dir, "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(cases), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			t.Fatalf("cases.txt: %q has %d fields", line, len(fields))
		}
		name, envs, args := fields[0], strings.Fields(fields[1]), strings.Fields(fields[2])
		if fields[1] == "-" {
			envs = nil
		}
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			out, errOut, code := runSbcastTest(t, newFakeSbcast(), envs, args...)
			got := fmt.Sprintf("rc=%d\n--- stdout\n%s--- stderr\n%s", code, out, errOut)
			// Loam's version line is its own (as every command's -V).
			got = strings.Replace(got, versionLine, "slurm-wlm 22.05.8", 1)
			w := sbcastTimes.ReplaceAllString(string(want), "${1}TIME")
			g := sbcastTimes.ReplaceAllString(got, "${1}TIME")
			if diff := cmp.Diff(w, g); diff != "" {
				t.Errorf("sbcast %s (-want +got):\n%s", strings.Join(args, " "), diff)
			}
		})
	}
}

// TestSbcastInsideJob replays what the peer's sbcast said inside a
// two-node job (job 14804 on cpu[001-002], output copied by hand; Loam's
// node names are cpu01..): success, an existing file on both nodes or on
// one (the peer's nodes share a host: the second writer finds the
// first's file), a missing directory.
func TestSbcastInsideJob(t *testing.T) {
	tests := map[string]struct {
		args   []string
		errno  map[string]int
		stderr string
		code   int
	}{
		"success": {args: []string{"src.txt", "/tmp/s12g-dst/a"}},
		"exists on both nodes": {args: []string{"src.txt", "/tmp/s12g-dst/a"},
			errno: map[string]int{"cpu01": 17, "cpu02": 17},
			stderr: "sbcast: error: REQUEST_FILE_BCAST(cpu01): File exists\n" +
				"sbcast: error: REQUEST_FILE_BCAST(cpu02): File exists\n",
			code: 17},
		"exists on the second node": {args: []string{"src.txt", "/tmp/s12g-dst/a"},
			errno:  map[string]int{"cpu02": 17},
			stderr: "sbcast: error: REQUEST_FILE_BCAST(cpu02): File exists\n", code: 17},
		"no such directory": {args: []string{"src.txt", "/tmp/s12g-nodir/b"},
			errno: map[string]int{"cpu01": 2, "cpu02": 2},
			stderr: "sbcast: error: REQUEST_FILE_BCAST(cpu01): No such file or directory\n" +
				"sbcast: error: REQUEST_FILE_BCAST(cpu02): No such file or directory\n",
			code: 2},
		"-f onto a directory (job 14950)": {args: []string{"-f", "src.txt", "/tmp/s12g-dst2"},
			errno: map[string]int{"cpu01": 21, "cpu02": 21},
			stderr: "sbcast: error: REQUEST_FILE_BCAST(cpu01): Is a directory\n" +
				"sbcast: error: REQUEST_FILE_BCAST(cpu02): Is a directory\n",
			code: 21},
		"empty file": {args: []string{"/dev/null", "/tmp/s12g-dst/null"},
			stderr: "sbcast: error: Warning: file `/dev/null` is empty.\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := newFakeSbcast()
			f.errno = tc.errno
			if f.errno == nil {
				f.errno = map[string]int{}
			}
			_, errOut, code := runSbcastTest(t, f, []string{"SLURM_JOB_ID=7"}, tc.args...)
			if diff := cmp.Diff(tc.stderr, sbcastSortLines(errOut)); diff != "" || code != tc.code {
				t.Errorf("exit %d, want %d; stderr (-want +got):\n%s", code, tc.code, diff)
			}
		})
	}
}

// sbcastSortLines sorts lines: nodes answer in parallel, so their order is not
// fixed (the peer's is not either).
func sbcastSortLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "")
}

// TestSbcastSends checks what each node is sent: the file in chunks of
// -s (within Loam's bounds), the mode, -f and -p, and the request to the
// controller (the destination made absolute against the working
// directory, the step of -j JOB.STEP).
func TestSbcastSends(t *testing.T) {
	f := newFakeSbcast()
	big := bytes.Repeat([]byte("0123456789abcdef"), (api.SbcastChunkMin*2+100)/16)
	f.files["big"] = fakeSource{st: sbcastStat{mode: 0o100755, size: int64(len(big)),
		mtime: time.Unix(1577934245, 0), atime: time.Unix(1577934246, 0)}, data: big}
	_, errOut, code := runSbcastTest(t, f, nil, "-j", "7.2", "-f", "-p", "-s", "64k", "big", "rel/big")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	wantReq := []api.SbcastRequest{{JobID: 7, StepID: 2, HasStep: true, Dest: sbcastCaptureDir + "/rel/big", Size: int64(len(big))}}
	if diff := cmp.Diff(wantReq, f.asked); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	for _, node := range []string{"cpu01", "cpu02"} {
		chunks := f.chunks[node]
		var got []byte
		var offsets []int64
		for _, c := range chunks {
			offsets = append(offsets, c.Offset)
			got = append(got, c.Data...)
			if !c.Force || !c.Preserve || c.Mode != 0o755 || c.Mtime != 1577934245e9 || c.Atime != 1577934246e9 ||
				string(c.Grant.Claims) != `{"node":"`+node+`"}` {
				t.Errorf("%s: chunk at %d: force %t preserve %t mode %o mtime %d grant %s", node, c.Offset,
					c.Force, c.Preserve, c.Mode, c.Mtime, c.Grant.Claims)
			}
		}
		if want := []int64{0, api.SbcastChunkMin, 2 * api.SbcastChunkMin}; !slices.Equal(offsets, want) || !bytes.Equal(got, big) {
			t.Errorf("%s: offsets %v (want %v), %d bytes (want %d)", node, offsets, want, len(got), len(big))
		}
		if !chunks[len(chunks)-1].Last || chunks[0].Last {
			t.Errorf("%s: only the last chunk may be marked last", node)
		}
	}
}

// TestSbcastSteps: which steps sbcast asks the controller for, and which
// it refuses itself (Loam has no extern or interactive steps, no
// heterogeneous jobs).
func TestSbcastSteps(t *testing.T) {
	tests := map[string]struct {
		job    string
		asked  []api.SbcastRequest
		stderr string
	}{
		"the job":         {job: "7", asked: []api.SbcastRequest{{JobID: 7, Dest: "/x", Size: 12}}},
		"the job as +0":   {job: "7+0", asked: []api.SbcastRequest{{JobID: 7, Dest: "/x", Size: 12}}},
		"its batch step":  {job: "7.batch", asked: []api.SbcastRequest{{JobID: 7, HasStep: true, StepID: api.SbcastBatchStep, Dest: "/x", Size: 12}}},
		"an srun step":    {job: "7.3", asked: []api.SbcastRequest{{JobID: 7, HasStep: true, StepID: 3, Dest: "/x", Size: 12}}},
		"an extern step":  {job: "7.extern", stderr: "sbcast: error: Slurm job 7.extern lookup error: Invalid job id specified\n"},
		"a hetjob member": {job: "7+1", stderr: "sbcast: error: Slurm job 7+1 lookup error: Invalid job id specified\n"},
		"an array task":   {job: "7_1", asked: []api.SbcastRequest{{JobID: 7, HasTask: true, Task: 1, Dest: "/x", Size: 12}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := newFakeSbcast()
			_, errOut, _ := runSbcastTest(t, f, nil, "-j", tc.job, "src.txt", "/x")
			if diff := cmp.Diff(tc.asked, f.asked); diff != "" || errOut != tc.stderr {
				t.Errorf("stderr %q, want %q; asked (-want +got):\n%s", errOut, tc.stderr, diff)
			}
		})
	}
}

func TestSbcastBlock(t *testing.T) {
	tests := map[string]struct {
		size uint32
		want int
	}{
		"the default is Slurm's 8 MiB":  {0, 8 << 20},
		"more than a node takes is cut": {64 << 20, api.SbcastChunkMax},
		"one byte is raised":            {1, api.SbcastChunkMin},
		"a size within bounds is kept":  {1 << 20, 1 << 20},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := sbcastBlock(tc.size); got != tc.want {
				t.Errorf("sbcastBlock(%d) = %d, want %d", tc.size, got, tc.want)
			}
		})
	}
}

func FuzzParseStepSel(f *testing.F) {
	for _, s := range []string{"12", "12.3", "1_2.3", "1+2.batch", "-5", "abc", "1.", "1_[2-3]", "99999999999", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := parseStepSel(s)
		if err == nil && sel.String() == "" {
			t.Errorf("parseStepSel(%q) prints nothing", s)
		}
	})
}
