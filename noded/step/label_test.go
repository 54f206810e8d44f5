package step

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCopyLabelled: srun -l's labels in an output file, as the peer's
// srun -n11 -l -o f.txt writes them (" 0: a0", a last line without its
// newline ended).
func TestCopyLabelled(t *testing.T) {
	tests := map[string]struct {
		in          string
		task, width int
		want        string
	}{
		"lines":                  {in: "a0\nb\n", task: 0, width: 1, want: "0: a0\n0: b\n"},
		"padded to the widest":   {in: "a1\n", task: 1, width: 2, want: " 1: a1\n"},
		"last line not ended":    {in: "b\nc", task: 3, width: 2, want: " 3: b\n 3: c\n"},
		"nothing":                {in: "", task: 0, width: 1, want: ""},
		"a line over the buffer": {in: strings.Repeat("x", 40<<10) + "\n", task: 2, width: 1, want: "2: " + strings.Repeat("x", 40<<10) + "\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			if err := copyLabelled(&b, strings.NewReader(tc.in), tc.task, tc.width); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, b.String()); diff != "" {
				t.Errorf("file (-want +got):\n%s", diff)
			}
		})
	}
}
