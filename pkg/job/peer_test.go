package job

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// -peer captures golden data from the real Slurm on this host (the "peer"
// cluster); plain test runs only read the files it wrote.
var peer = flag.Bool("peer", false, "capture testdata/*_peer.json from the real sbatch/scontrol on this host")

// sbatchRun runs the real sbatch and returns stdout, stderr and exit code.
func sbatchRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command("sbatch", args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run sbatch: %v", err)
	}
	return out.String(), errb.String(), code
}

var submittedRE = regexp.MustCompile(`^Submitted batch job (\d+)`)

// showJob returns scontrol's fields of a job; the job is cancelled after.
func showJob(t *testing.T, stdout string) map[string]string {
	t.Helper()
	m := submittedRE.FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no job id in %q", stdout)
	}
	out, err := exec.Command("scontrol", "show", "job", "-o", m[1]).Output()
	if err != nil {
		t.Fatalf("scontrol show job %s: %v", m[1], err)
	}
	scancel(m[1])
	return scontrolFields(string(out))
}

// scontrolFields splits "scontrol show job -o" into Key=Value fields. Values
// never hold " Key=" in what these tests submit.
var fieldRE = regexp.MustCompile(`(?:^| )([A-Za-z/:_]+)=`)

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

// scancel cancels jobs the capture submitted.
func scancel(ids ...string) { exec.Command("scancel", ids...).Run() }

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
