package jobopt

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/job"
)

var peer = flag.Bool("peer", false, "capture testdata/sbatch_peer.json from the real sbatch on this host")

// peerDir is where the capture runs sbatch; the golden file says {cwd}.
const peerDir = "/tmp/loam-jobopt-golden"

// peerEnv is the environment every case starts from.
var peerEnv = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root"}

// goldenResult is what the real sbatch did with one case.
type goldenResult struct {
	Name   string            `json:"name"`
	Args   []string          `json:"args"`
	Env    []string          `json:"env,omitempty"`
	Script string            `json:"script,omitempty"`
	Stdin  string            `json:"stdin,omitempty"`
	Code   int               `json:"exit_code"`
	Stdout string            `json:"stdout,omitempty"`
	Stderr string            `json:"stderr,omitempty"`
	Fields map[string]string `json:"scontrol,omitempty"`
	// BatchScript is what slurmctld stored (scontrol write batch_script).
	BatchScript string `json:"batch_script,omitempty"`
}

const goldenFile = "testdata/sbatch_peer.json"

func TestCapturePeer(t *testing.T) {
	if !*peer {
		t.Skip("needs -peer and a running Slurm")
	}
	var results []goldenResult
	for _, tc := range goldenCases {
		results = append(results, runPeer(t, tc))
	}
	b, err := json.MarshalIndent(results, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(goldenFile, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

var jobIDRE = regexp.MustCompile(`Submitted batch job (\d+)`)

func runPeer(t *testing.T, tc goldenCase) goldenResult {
	os.RemoveAll(peerDir)
	if err := os.MkdirAll(peerDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if tc.Script != "" || tc.Stdin == "" {
		os.WriteFile(filepath.Join(peerDir, "job.sh"), []byte(tc.Script), 0o644)
	}
	var out, errb bytes.Buffer
	cmd := exec.Command("sbatch", append([]string{"--hold"}, tc.Args...)...)
	cmd.Dir, cmd.Env = peerDir, append(append([]string(nil), peerEnv...), tc.Env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(tc.Stdin), &out, &errb
	code := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s: run sbatch: %v", tc.Name, err)
		}
		code = ee.ExitCode()
	}
	r := goldenResult{Name: tc.Name, Args: tc.Args, Env: tc.Env, Script: tc.Script, Stdin: tc.Stdin,
		Code: code, Stdout: out.String(), Stderr: errb.String()}
	if m := jobIDRE.FindStringSubmatch(r.Stdout); m != nil {
		show, err := exec.Command("scontrol", "show", "job", "-o", m[1]).Output()
		if err != nil {
			t.Fatalf("%s: scontrol show job %s: %v", tc.Name, m[1], err)
		}
		script, err := exec.Command("scontrol", "write", "batch_script", m[1], "-").Output()
		if err != nil {
			t.Fatalf("%s: scontrol write batch_script %s: %v", tc.Name, m[1], err)
		}
		exec.Command("scancel", m[1]).Run()
		r.Fields, r.BatchScript = scontrolFields(string(show)), string(script)
	}
	r.Stdout = strings.ReplaceAll(r.Stdout, peerDir, "{cwd}")
	r.Stderr = strings.ReplaceAll(r.Stderr, peerDir, "{cwd}")
	for k, v := range r.Fields {
		r.Fields[k] = strings.ReplaceAll(v, peerDir, "{cwd}")
	}
	return r
}

var fieldRE = regexp.MustCompile(`(?:^| )([A-Za-z/:_]+)=`)

// scontrolFields splits one "scontrol show job -o" line into its fields.
func scontrolFields(line string) map[string]string {
	line = strings.TrimSpace(line)
	fields := map[string]string{}
	idx := fieldRE.FindAllStringSubmatchIndex(line, -1)
	for i, m := range idx {
		end := len(line)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		fields[line[m[2]:m[3]]] = strings.TrimSpace(line[m[1]:end])
	}
	return fields
}

func loadGolden(t *testing.T) map[string]goldenResult {
	t.Helper()
	b, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	var results []goldenResult
	if err := json.Unmarshal(b, &results); err != nil {
		t.Fatalf("%s: %v", goldenFile, err)
	}
	m := map[string]goldenResult{}
	for _, r := range results {
		m[r.Name] = r
	}
	return m
}

// goldenCwd stands for peerDir in the tests.
const goldenCwd = "{cwd}"

// parseCase runs a case through Parser as the sbatch command would.
func parseCase(tc goldenCase, now time.Time) (*Result, error) {
	p := &Parser{Env: append(append([]string(nil), peerEnv...), tc.Env...), Cwd: goldenCwd, Now: now, Root: true}
	cl, err := p.CommandLine(append([]string{"--hold"}, tc.Args...))
	if err != nil {
		return nil, err
	}
	if cl.Action != Submit {
		return nil, nil
	}
	script := []byte(tc.Stdin)
	if cl.Script != "" {
		script = []byte(tc.Script)
		// The command resolves the script in the working directory first.
		if c := cl.ScriptCandidates(""); len(c) > 0 && cl.WorkDir == goldenCwd {
			cl.Script = c[0]
		}
	}
	return p.Submission(cl, script)
}

// stderrLines keeps the lines of sbatch's standard error that Loam
// reproduces: its messages and parse_time's diagnostic, not its verbose
// logging.
func stderrLines(stderr string, accepted bool) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		keep := strings.HasPrefix(l, "sbatch: error: ") || strings.HasPrefix(l, "sbatch: Warning: ") ||
			strings.HasPrefix(l, "Invalid time specification")
		if !accepted {
			keep = keep || strings.HasPrefix(l, "sbatch: fatal: ") || strings.HasPrefix(l, "Try ") ||
				strings.HasPrefix(l, "sbatch: unrecognized option") || strings.HasPrefix(l, "sbatch: option") ||
				strings.HasPrefix(l, "sbatch: invalid option")
		}
		if keep && !strings.Contains(l, "Batch job submission failed") && !strings.HasPrefix(l, "sbatch: error: invalid partition") {
			out = append(out, l)
		}
	}
	return out
}

func TestGoldenAgainstPeer(t *testing.T) {
	golden := loadGolden(t)
	for _, tc := range goldenCases {
		t.Run(tc.Name, func(t *testing.T) {
			g, ok := golden[tc.Name]
			if !ok || !cmp.Equal(g.Args, tc.Args) || g.Script != tc.Script || g.Stdin != tc.Stdin || !cmp.Equal(g.Env, tc.Env) {
				t.Fatalf("%s is missing or stale: rerun go test -run TestCapturePeer -peer", goldenFile)
			}
			now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
			if st, ok := g.Fields["SubmitTime"]; ok {
				now, _ = time.ParseInLocation("2006-01-02T15:04:05", st, time.UTC)
			}
			res, err := parseCase(tc, now)
			switch {
			case tc.Loam != nil:
				checkLoamWant(t, tc, res, err)
			case strings.Contains(g.Stderr, "Batch job submission failed"):
				checkController(t, g, res, err)
			case g.Code != 0:
				checkRefused(t, g, err)
			default:
				checkAccepted(t, g, res, err)
			}
		})
	}
}

func checkRefused(t *testing.T, g goldenResult, err error) {
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("Loam accepted or failed oddly (%v); Slurm exited %d with\n%s", err, g.Code, g.Stderr)
	}
	want := stderrLines(g.Stderr, false)
	if diff := cmp.Diff(want, e.Lines); diff != "" || e.Code != g.Code {
		t.Errorf("exit %d, want %d; stderr (-slurm +loam):\n%s", e.Code, g.Code, diff)
	}
}

func checkAccepted(t *testing.T, g goldenResult, res *Result, err error) {
	if err != nil {
		t.Fatalf("Loam refused: %v\nSlurm accepted it: %s", err, g.Stdout)
	}
	got := scontrolView(res, g.Fields["JobId"])
	if len(got) < 5 {
		t.Fatalf("only %d fields to compare: %v", len(got), got)
	}
	want := map[string]string{}
	for k := range got {
		want[k] = g.Fields[k]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scontrol fields (-slurm +loam):\n%s", diff)
	}
	if res.Request.Script != g.BatchScript {
		t.Errorf("script %q, want %q", res.Request.Script, g.BatchScript)
	}
	// "Loam ignores --X" is Loam's own line (doc.go); every other warning
	// must be the peer's.
	warnings := slices.DeleteFunc(slices.Clone(res.Warnings), func(w string) bool { return strings.Contains(w, ": warning: Loam ignores ") })
	if diff := cmp.Diff(stderrLines(g.Stderr, true), warnings, cmpEmpty); diff != "" {
		t.Errorf("warnings (-slurm +loam):\n%s", diff)
	}
}

var cmpEmpty = cmp.Transformer("empty", func(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
})

// checkController: sbatch sent the job and slurmctld refused it. Loam's
// parser must send it too, and the job package's controller checks must
// refuse it with slurmctld's words.
func checkController(t *testing.T, g goldenResult, res *Result, err error) {
	if err != nil {
		t.Fatalf("Loam's client refused what Slurm's sends: %v", err)
	}
	r := res.Request
	var cerr error
	if cerr = r.Validate(); cerr == nil && r.Array != "" {
		_, cerr = job.ParseArray(r.Array, 10001)
	}
	if cerr == nil && r.Dependency != "" {
		_, cerr = job.ParseDependency(r.Dependency)
	}
	if cerr == nil {
		t.Fatalf("the controller checks accept it; slurmctld said %s", g.Stderr)
	}
	msg := strings.TrimSpace(strings.TrimPrefix(g.Stderr, "sbatch: error: Batch job submission failed: "))
	if !strings.HasPrefix(cerr.Error(), msg) {
		t.Errorf("controller check: %q, want it to start with slurmctld's %q", cerr, msg)
	}
}

func checkLoamWant(t *testing.T, tc goldenCase, res *Result, err error) {
	t.Logf("Loam differs on purpose: %s", tc.Why)
	if tc.Loam.Accepted {
		if err != nil {
			t.Fatalf("Loam refused: %v", err)
		}
		return
	}
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("Loam = %v, want exit %d with %q", err, tc.Loam.Code, tc.Loam.Lines)
	}
	ok = e.Code == tc.Loam.Code && len(e.Lines) == len(tc.Loam.Lines)
	for i := 0; ok && i < len(e.Lines); i++ {
		ok = strings.HasPrefix(e.Lines[i], tc.Loam.Lines[i])
	}
	if !ok {
		t.Errorf("exit %d with %q, want exit %d with lines starting %q", e.Code, e.Lines, tc.Loam.Code, tc.Loam.Lines)
	}
}
