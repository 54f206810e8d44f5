package cgfs

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFreezeThaw: Freeze and Thaw write the freezer file of each cgroup
// version, and a group that is gone is an error naming it.
func TestFreezeThaw(t *testing.T) {
	root := t.TempDir()
	v1File := filepath.Join(root, "freezer", "job", "freezer.state")
	v2File := filepath.Join(root, "unified", "job", "cgroup.freeze")
	for _, f := range []string{v1File, v2File} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type group interface {
		Freeze() error
		Thaw() error
	}
	tests := map[string]struct {
		g          group
		file       string
		wantFrozen string
		wantThawed string
	}{
		"v1 freezer": {&v1Group{v: &V1{root: root}, name: "job"}, v1File, "FROZEN", "THAWED"},
		"v2":         {&v2Group{dir: filepath.Dir(v2File), name: "job"}, v2File, "1", "0"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			check := func(op string, do func() error, want string) {
				t.Helper()
				if err := do(); err != nil {
					t.Fatalf("%s: %v", op, err)
				}
				if got, _ := os.ReadFile(tc.file); string(got) != want {
					t.Errorf("after %s the file holds %q, want %q", op, got, want)
				}
			}
			check("Freeze", tc.g.Freeze, tc.wantFrozen)
			check("Thaw", tc.g.Thaw, tc.wantThawed)
		})
	}
	gone := &v2Group{dir: filepath.Join(root, "unified", "gone", "x"), name: "gone/x"}
	if err := gone.Freeze(); err == nil {
		t.Error("Freeze of a group that is gone succeeded")
	}
}
