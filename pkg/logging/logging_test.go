package logging

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sirupsen/logrus"
)

func TestNew(t *testing.T) {
	cases := map[string]struct {
		level, format string
		wantErr       bool
	}{
		"json at debug":           {level: "debug", format: "json"},
		"text at info":            {level: "info", format: "text"},
		"auto":                    {level: "warn", format: "auto"},
		"an unknown format fails": {level: "info", format: "xml", wantErr: true},
		"an unknown level fails":  {level: "loud", format: "json", wantErr: true},
	}
	for name, tc := range cases {
		log, err := New(tc.level, tc.format)
		switch {
		case tc.wantErr && err == nil:
			t.Errorf("%s: New(%q, %q) succeeded", name, tc.level, tc.format)
		case !tc.wantErr && err != nil:
			t.Errorf("%s: New(%q, %q): %v", name, tc.level, tc.format, err)
		case !tc.wantErr:
			if want, _ := logrus.ParseLevel(tc.level); log.Logger.GetLevel() != want {
				t.Errorf("%s: level %v, want %v", name, log.Logger.GetLevel(), want)
			}
		}
	}
}

func TestSlurmLevel(t *testing.T) {
	cases := map[string]logrus.Level{
		"": logrus.InfoLevel, "quiet": logrus.PanicLevel, "error": logrus.ErrorLevel,
		"verbose": logrus.InfoLevel, "debug": logrus.DebugLevel, "debug5": logrus.TraceLevel,
	}
	for name, want := range cases {
		if got, ok := SlurmLevel(name); !ok || got != want {
			t.Errorf("SlurmLevel(%q) = %v, %v; want %v", name, got, ok, want)
		}
	}
	if _, ok := SlurmLevel("loud"); ok {
		t.Error(`SlurmLevel("loud") accepted`)
	}
}

// TestFileReopen: after a rotation moved the file, Reopen makes a new one
// under the old name and later lines go there; earlier ones stay moved.
func TestFileReopen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ctld.log")
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintln(f, "before")
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, "still the old file")
	if err := f.Reopen(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, "after")
	for p, want := range map[string]string{path + ".1": "before\nstill the old file\n", path: "after\n"} {
		got, err := os.ReadFile(p)
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", p, got, err, want)
		}
	}
	if st, err := os.Stat(path); err != nil {
		t.Error(err)
	} else if st.Mode().Perm() != 0o640 {
		t.Errorf("mode of the new file: %v, want 0640", st.Mode().Perm())
	}
}
