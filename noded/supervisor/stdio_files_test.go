package supervisor

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
)

// TestOpenStdioMissingInputLeavesOutput checks that a job whose --input
// is missing fails before its output file is created or truncated, as on
// the peer (sbatch -i nope --wrap ...: FAILED, no slurm-N.out).
func TestOpenStdioMissingInputLeavesOutput(t *testing.T) {
	needRoot(t)
	dir := userDir(t, nobody)
	old := filepath.Join(dir, "old.out")
	if err := os.WriteFile(old, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		out  string
		want map[string]string // file name -> content after the failure
	}{
		"the default output is not created": {want: map[string]string{"old.out": "before\n"}},
		"an old output is not truncated":    {out: "old.out", want: map[string]string{"old.out": "before\n"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			l := launchFor(dir, func(r *api.LaunchRequest) { r.StdIn, r.StdOut = "nope.txt", tc.out })
			if _, err := openStdio(l, nobody); err == nil {
				t.Fatal("openStdio opened a missing input")
			}
			got := map[string]string{}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
				got[e.Name()] = string(data)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("files after the failure (-want +got):\n%s", diff)
			}
		})
	}
}
