package agent

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/pkg/slurmconf"
)

// TestTmpDiskMB: TmpFS is measured as slurmd's get_tmp_disk does (all the
// file system's blocks, in MiB, %n expanded); a TmpFS that does not exist
// is 0 without an error.
func TestTmpDiskMB(t *testing.T) {
	dir := t.TempDir()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	want := int64(st.Blocks) * st.Frsize / (1 << 20)
	if err := os.Mkdir(filepath.Join(dir, "n1"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		tmpFS string
		want  int64
	}{
		"a directory":           {tmpFS: dir, want: want},
		"%n names the node":     {tmpFS: dir + "/%n", want: want},
		"a missing TmpFS is 0":  {tmpFS: filepath.Join(dir, "missing"), want: 0},
		"a missing %h dir is 0": {tmpFS: dir + "/%h-x", want: 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := slurmconf.Default()
			cfg.TmpFS = tc.tmpFS
			var hw hardware
			if err := hw.measureTmpDisk(&nodeConfig{cfg: cfg, node: slurmconf.Node{Name: "n1"}}); err != nil {
				t.Fatal(err)
			}
			if hw.tmpDiskMB != tc.want {
				t.Errorf("TmpDisk %d, want %d", hw.tmpDiskMB, tc.want)
			}
		})
	}
}
