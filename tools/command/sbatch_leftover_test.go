package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSbatchVerboseBlock: sbatch -v prints the options set to standard
// error before it submits, as the peer's sbatch -v --hold -J s13hjob
// -p batch --wrap "sleep 1" does (its plugin-loading lines left out).
func TestSbatchVerboseBlock(t *testing.T) {
	f := &fakeController{}
	te := newTestEnv(f, 1795949851)
	code := Sbatch(context.Background(), te.Env, []string{"-v", "--hold", "-J", "s13hjob", "-p", "batch", "--wrap", "sleep 1"})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	want := "sbatch: defined options\n" +
		"sbatch: -------------------- --------------------\n" +
		"sbatch: hold                : set\n" +
		"sbatch: job-name            : s13hjob\n" +
		"sbatch: partition           : batch\n" +
		"sbatch: verbose             : 1\n" +
		"sbatch: wrap                : sleep 1\n" +
		"sbatch: -------------------- --------------------\n" +
		"sbatch: end of defined options\n"
	if diff := cmp.Diff(want, te.stderr.String()); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
	if len(f.submits) != 1 {
		t.Errorf("%d submissions, want 1", len(f.submits))
	}
}
