package slurmdata

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPeerOutputRoundTrip reads what Slurm 22.05's squeue and sinfo
// printed with --json (testdata/*.json) into a tree and checks that both
// writers give back the peer's bytes: the JSON file, and the YAML file
// the peer printed for the same records with --yaml.
func TestPeerOutputRoundTrip(t *testing.T) {
	for _, name := range []string{"squeue", "sinfo"} {
		t.Run(name, func(t *testing.T) {
			js := readFile(t, name+".json")
			v, err := decodeOrdered(js)
			if err != nil {
				t.Fatalf("decode %s.json: %v", name, err)
			}
			if diff := cmp.Diff(string(js), string(JSON(v))); diff != "" {
				t.Errorf("JSON (-want +got):\n%s", diff)
			}
			ym := readFile(t, name+".yaml")
			if diff := cmp.Diff(string(ym), string(YAML(v))); diff != "" {
				t.Errorf("YAML (-want +got):\n%s", diff)
			}
		})
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
