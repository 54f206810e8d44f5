package command

import (
	"context"
	"os"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSbatchDirectoryScript: a directory given as the script reads as
// empty, as the peer's sbatch said for "sbatch sub".
func TestSbatchDirectoryScript(t *testing.T) {
	te := newTestEnv(&fakeController{}, 1_800_000_000)
	te.files["/home/alice/work/sub"] = nil
	te.Env.ReadFile = func(name string) ([]byte, error) {
		return nil, &os.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
	}
	code := Sbatch(context.Background(), te.Env, []string{"sub"})
	if diff := cmp.Diff("sbatch: error: Batch script is empty!\n", te.stderr.String()); code != 1 || diff != "" {
		t.Errorf("exit %d, stderr (-want +got):\n%s", code, diff)
	}
}
