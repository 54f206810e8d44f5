package slurmconf

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden loads each configuration, validates it, and compares the
// printed result (Dump plus Validate's errors) with testdata/golden.
func TestGolden(t *testing.T) {
	cases := map[string]string{
		"peer":    "testdata/peer",    // the peer's real Slurm 22.05 files
		"kitchen": "testdata/kitchen", // every syntax and key, Include globs
		"demo":    "../../etc/demo",
		"site":    "../../etc/site",
	}
	for name, dir := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := Load(os.DirFS(dir), "slurm.conf")
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			got := c.Dump() + "\n[validate]\n"
			if err := c.Validate(); err != nil {
				got += err.Error() + "\n"
			}
			path := filepath.Join("testdata", "golden", name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s differs (-want +got); go test -update rewrites it:\n%s", path, diff)
			}
		})
	}
}
