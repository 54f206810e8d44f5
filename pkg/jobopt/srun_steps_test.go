package jobopt

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSrunStepSharingOptions: the options that say how a step shares and
// lays out its job's allocation, as srun reads them inside the peer's
// job of two nodes (insideJob).
func TestSrunStepSharingOptions(t *testing.T) {
	dir := t.TempDir()
	hostfile := filepath.Join(dir, "hosts")
	if err := os.WriteFile(hostfile, []byte("cpu002\ncpu001\n\ncpu002\ncpu002\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type shape struct {
		Overlap, NodesOnCommandLine bool
		Immediate, Relative         *int
		TaskHosts                   []string
		NodeList                    string
	}
	zero, one := 0, 1
	tests := map[string]struct {
		env       []string
		args      []string
		want      shape
		wantLines []string
	}{
		"--overlap":     {args: []string{"--overlap", "true"}, want: shape{Overlap: true}},
		"SLURM_OVERLAP": {env: []string{"SLURM_OVERLAP=1"}, args: []string{"true"}, want: shape{Overlap: true}},
		"-I: at once":   {args: []string{"-I", "true"}, want: shape{Immediate: &one}},
		"-I0: no -I":    {args: []string{"-I0", "true"}, want: shape{}},
		"-r1 -N1":       {args: []string{"-r1", "-N1", "true"}, want: shape{Relative: &one, NodesOnCommandLine: true}},
		"-r0":           {args: []string{"-r", "0", "true"}, want: shape{Relative: &zero}},
		"-r-1 is refused as the peer refuses it": {args: []string{"-r-1", "true"},
			wantLines: []string{"srun: error: Invalid numeric value \"-1\" for --relative."}},
		"-rx is refused": {args: []string{"-rx", "true"},
			wantLines: []string{"srun: error: Invalid numeric value \"x\" for --relative."}},
		"-m arbitrary reads SLURM_HOSTFILE in order": {env: []string{"SLURM_HOSTFILE=" + hostfile}, args: []string{"-m", "arbitrary", "true"},
			want: shape{TaskHosts: []string{"cpu002", "cpu001", "cpu002", "cpu002"}, NodeList: "cpu[001-002]"}},
		"-m arbitrary -w keeps the -w order": {args: []string{"-m", "arbitrary", "-w", "cpu002,cpu001,cpu002", "true"},
			want: shape{TaskHosts: []string{"cpu002", "cpu001", "cpu002"}, NodeList: "cpu[001-002]"}},
		"SLURM_HOSTFILE without -m arbitrary is not read": {env: []string{"SLURM_HOSTFILE=" + hostfile}, args: []string{"true"}},
		// The peer's srun counts the tasks from the empty list first
		// unless -n is an option (SLURM_NTASKS does not count).
		"-m arbitrary without -w nor SLURM_HOSTFILE": {args: []string{"-m", "arbitrary", "true"},
			wantLines: []string{"srun: error: invalid number of tasks (-n 0)"}},
		"-m arbitrary with SLURM_NTASKS only": {env: []string{"SLURM_NTASKS=2"}, args: []string{"-m", "arbitrary", "true"},
			wantLines: []string{"srun: error: invalid number of tasks (-n 0)"}},
		// In a job the step wants a host a task (outside one, the
		// allocation wants -w: srun_test.go).
		"-m arbitrary -n2 without -w": {args: []string{"-m", "arbitrary", "-n2", "true"},
			wantLines: []string{"srun: error: You asked for 2 tasks but hostlist specified 0 nodes"}},
		"-m arbitrary, --ntasks-per-gpu with --ntasks-per-node": {args: []string{"-m", "arbitrary", "--ntasks-per-gpu=1", "--ntasks-per-node=1", "true"},
			wantLines: []string{"srun: fatal: --ntasks-per-node is mutually exclusive with --ntasks-per-gpu and SLURM_NTASKS_PER_GPU"}},
		"-m arbitrary -n3 -w of two": {args: []string{"-m", "arbitrary", "-n3", "-w", "cpu002,cpu001", "true"},
			wantLines: []string{"srun: error: You asked for 3 tasks but hostlist specified 2 nodes"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Prog: "srun", Env: append(append([]string(nil), insideJob...), tc.env...), Cwd: dir}
			res, err := p.Srun(tc.args)
			if tc.wantLines != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("error %v, want the lines %q", err, tc.wantLines)
				}
				if diff := cmp.Diff(tc.wantLines, e.Lines); diff != "" {
					t.Errorf("error lines (-want +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := shape{Overlap: res.Step.Overlap, NodesOnCommandLine: res.Step.NodesOnCommandLine, Immediate: res.Step.Immediate,
				Relative: res.Step.Relative, TaskHosts: res.Step.TaskHosts}
			if res.Step.TaskHosts != nil {
				got.NodeList = res.Request.NodeList
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}
