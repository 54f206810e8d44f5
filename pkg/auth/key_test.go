package auth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadKey(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	hex64 := strings.Repeat("ab", 32)
	tests := map[string]struct {
		path    string
		wantErr string
	}{
		"hex key with newline":     {path: write("hex", hex64+"\n", 0o600)},
		"raw key bytes":            {path: write("raw", strings.Repeat("x", 40), 0o400)},
		"readable by others":       {path: write("open", hex64, 0o644), wantErr: "lets others read it"},
		"too short":                {path: write("short", "abcd", 0o600), wantErr: "too short"},
		"missing file":             {path: filepath.Join(dir, "nope"), wantErr: "no such file"},
		"a directory is not a key": {path: dir, wantErr: "not a regular file"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			k, err := LoadKey(tc.path)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("LoadKey error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !k.Valid() {
				t.Fatalf("LoadKey: %v", err)
			}
		})
	}
}

func TestGenerateKey(t *testing.T) {
	p := filepath.Join(t.TempDir(), "etc", "loam.key")
	k, err := GenerateKey(p)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v, err %v; want 0600", fi.Mode(), err)
	}
	loaded, err := LoadKey(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(loaded.secret) != string(k.secret) {
		t.Errorf("loaded key differs from generated one")
	}
	if _, err := GenerateKey(p); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("second GenerateKey error = %v, want already exists", err)
	}
}

func TestKeyPathPrecedence(t *testing.T) {
	t.Setenv(KeyFileEnv, "")
	if got := KeyPath(""); got != DefaultKeyFile {
		t.Errorf("KeyPath(\"\") = %q", got)
	}
	if got := KeyPath("/c/k"); got != "/c/k" {
		t.Errorf("KeyPath(configured) = %q", got)
	}
	t.Setenv(KeyFileEnv, "/env/k")
	if got := KeyPath("/c/k"); got != "/env/k" {
		t.Errorf("KeyPath with env = %q", got)
	}
}

func testKey(t *testing.T, b byte) Key {
	t.Helper()
	k, err := NewKey([]byte(strings.Repeat(string(rune(b)), 32)))
	if err != nil {
		t.Fatal(err)
	}
	return k
}
