package command

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
)

// TestSrunStreamNames checks how srun reads -i/-o/-e values, as the peer
// showed (srun -n2 -o VALUE): "allx.out" and "ALL.txt" went to the
// terminal, "01" and " 1" kept task 1's output only, "1x", "nonex.out"
// and "5" (there were 2 tasks) were files.
func TestSrunStreamNames(t *testing.T) {
	cases := map[string]struct {
		value       string
		ntasks      int
		file, input string
		task        int
	}{
		"a task id past the last task": {value: "5", ntasks: 2, file: "5", input: "./5", task: -1},
		"the last task":                {value: "1", ntasks: 2, file: "", input: "1", task: 1},
		"a name starting with all":     {value: "allx.out", file: "", input: "", task: -1},
		"all in capitals":              {value: "ALL.txt", file: "", input: "", task: -1},
		"a task id":                    {value: "1", file: "", input: "1", task: 1},
		"a task id with a zero":        {value: "01", file: "", input: "1", task: 1},
		"a task id after a blank":      {value: " 1", file: "", input: "1", task: 1},
		"digits then letters":          {value: "1x", file: "1x", input: "1x", task: -1},
		"a name starting with none":    {value: "nonex.out", file: "nonex.out", input: "nonex.out", task: -1},
		"a pattern":                    {value: "o-%t.out", file: "o-%t.out", input: "o-%t.out", task: -1},
		"a name shorter than all":      {value: "al", file: "al", input: "al", task: -1},
		"nothing (srun's own stream)":  {value: "", file: "", input: "", task: -1},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got := []any{srunFileName(c.value, c.ntasks), srunInputName(c.value, c.ntasks), srunStreamTask(c.value, c.ntasks)}
			if diff := cmp.Diff([]any{c.file, c.input, c.task}, got); diff != "" {
				t.Errorf("file, input, task (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSrunStreamTaskFilter checks that -o N shows task N's output and,
// without -e, its error only, as the peer's srun -n3 -o 1 printed only
// "out 1" and "err 1"; -e 2 keeps every task's output.
func TestSrunStreamTaskFilter(t *testing.T) {
	cases := map[string]struct {
		output, errs      string
		wantOut, wantErrs string
	}{
		"-o 1":  {output: "1", wantOut: "out 1\n", wantErrs: "err 1\n"},
		"-e 2":  {errs: "2", wantOut: "out 0\nout 1\nout 2\n", wantErrs: "err 2\n"},
		"-o 2":  {output: "2", wantOut: "out 2\n", wantErrs: "err 2\n"},
		"no -o": {wantOut: "out 0\nout 1\nout 2\n", wantErrs: "err 0\nerr 1\nerr 2\n"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var out, errs bytes.Buffer
			s := &stepRun{out: newTaskWriter(&out, false, true, 1), errw: newTaskWriter(&errs, false, true, 1),
				outTask: srunStreamTask(c.output, 3), errTask: srunStreamTask(firstSet(c.errs, c.output), 3)}
			for task := uint32(0); task < 3; task++ {
				s.frame(0, api.StepIOFrame{Kind: api.IOStdout, Task: task, Data: []byte("out " + string('0'+rune(task)) + "\n")})
				s.frame(0, api.StepIOFrame{Kind: api.IOStderr, Task: task, Data: []byte("err " + string('0'+rune(task)) + "\n")})
			}
			if diff := cmp.Diff([]string{c.wantOut, c.wantErrs}, []string{out.String(), errs.String()}); diff != "" {
				t.Errorf("stdout, stderr (-want +got):\n%s", diff)
			}
		})
	}
}

func firstSet(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
