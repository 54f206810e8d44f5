package supervisor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/loamhpc/loam/noded/asuser"
	"github.com/loamhpc/loam/noded/shim"
	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// nobody is a user every Linux system has.
var nobody = Credential{UID: 65534, GID: 65534, Groups: []uint32{65534}}

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("switching file system identity needs root")
	}
}

// userDir is a directory only cred may write.
func userDir(t *testing.T, cred Credential) string {
	t.Helper()
	d := t.TempDir()
	if err := os.Chown(d, int(cred.UID), int(cred.GID)); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(d), 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestAsUserCreatesAsTheUser(t *testing.T) {
	needRoot(t)
	mine, rootOnly := userDir(t, nobody), t.TempDir()
	if err := os.Chmod(rootOnly, 0o755); err != nil {
		t.Fatal(err)
	}
	err := asuser.Do(nobody, func() error {
		f, err := os.Create(filepath.Join(mine, "out"))
		if err != nil {
			return err
		}
		return f.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(filepath.Join(mine, "out"))
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != nobody.UID || st.Gid != nobody.GID {
		t.Errorf("file owned by %d:%d, want %d:%d", st.Uid, st.Gid, nobody.UID, nobody.GID)
	}
	err = asuser.Do(nobody, func() error {
		_, err := os.Create(filepath.Join(rootOnly, "out"))
		return err
	})
	if !errors.Is(err, os.ErrPermission) {
		t.Errorf("create in root's directory as nobody: %v, want permission denied", err)
	}
	// Root's identity is back on every thread.
	threads, _ := filepath.Glob("/proc/self/task/*/status")
	for _, th := range threads {
		data, _ := os.ReadFile(th)
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "Uid:") && strings.Fields(line)[4] != "0" {
				t.Errorf("%s: %s", th, line)
			}
		}
	}
}

func launchFor(dir string, mut func(r *api.LaunchRequest)) *spool.Launch {
	l := &spool.Launch{Node: "n1", Hostname: "host", Request: api.LaunchRequest{JobID: 7, Name: "nm", UserName: "nobody", WorkDir: dir}}
	if mut != nil {
		mut(&l.Request)
	}
	return l
}

func TestOpenStdio(t *testing.T) {
	needRoot(t)
	dir := userDir(t, nobody)
	old := filepath.Join(dir, "old.out")
	if err := os.WriteFile(old, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(old, int(nobody.UID), int(nobody.GID)); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		mut      func(r *api.LaunchRequest)
		wantOut  string // file the output goes to
		wantErr  string // file errors go to, "" = same
		wantText string // old.out's content after writing "x"
		wantFail string
	}{
		"default name, stderr into stdout": {wantOut: "slurm-7.out"},
		"separate error file": {mut: func(r *api.LaunchRequest) { r.StdOut, r.StdErr = "o-%j", "e-%x" },
			wantOut: "o-7", wantErr: "e-nm"},
		"truncate":      {mut: func(r *api.LaunchRequest) { r.StdOut = "old.out" }, wantOut: "old.out", wantText: "x"},
		"append":        {mut: func(r *api.LaunchRequest) { r.StdOut, r.OpenMode = "old.out", job.OpenAppend }, wantOut: "old.out", wantText: "before\nx"},
		"no such dir":   {mut: func(r *api.LaunchRequest) { r.StdOut = "nodir/x" }, wantFail: "Could not open stdout file " + dir + "/nodir/x: No such file or directory"},
		"unwritable":    {mut: func(r *api.LaunchRequest) { r.StdOut = "/etc/loam-test-denied" }, wantFail: "Could not open stdout file /etc/loam-test-denied: Permission denied"},
		"missing input": {mut: func(r *api.LaunchRequest) { r.StdIn = "in.txt" }, wantFail: "Could not open stdin file " + dir + "/in.txt: No such file or directory"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if name == "append" || name == "truncate" {
				_ = os.WriteFile(old, []byte("before\n"), 0o644)
			}
			f, err := openStdio(launchFor(dir, tc.mut), nobody)
			if tc.wantFail != "" {
				if err == nil || err.Error() != tc.wantFail {
					t.Fatalf("openStdio error = %v, want %q", err, tc.wantFail)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_, _ = f.out.WriteString("x")
			f.close()
			if f.out.Name() != filepath.Join(dir, tc.wantOut) {
				t.Errorf("stdout %s, want %s", f.out.Name(), tc.wantOut)
			}
			wantErr := tc.wantOut
			if tc.wantErr != "" {
				wantErr = tc.wantErr
			}
			if f.err.Name() != filepath.Join(dir, wantErr) {
				t.Errorf("stderr %s, want %s", f.err.Name(), wantErr)
			}
			if tc.wantText != "" {
				if data, _ := os.ReadFile(old); string(data) != tc.wantText {
					t.Errorf("old.out = %q, want %q", data, tc.wantText)
				}
			}
		})
	}
}

func TestUmask(t *testing.T) {
	tests := map[string]struct {
		env  []string
		want string
	}{
		"unset":       {want: "0022"},
		"from sbatch": {env: []string{"SLURM_UMASK=0077"}, want: "0077"},
		"last wins":   {env: []string{"SLURM_UMASK=0077", "SLURM_UMASK=002"}, want: "0002"},
		"garbage":     {env: []string{"SLURM_UMASK=9z"}, want: "0022"},
		"too big":     {env: []string{"SLURM_UMASK=17777"}, want: "0022"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := shim.Umask(tc.env); got != tc.want {
				t.Errorf("shim.Umask(%q) = %q, want %q", tc.env, got, tc.want)
			}
		})
	}
}

func TestParseEnvOutput(t *testing.T) {
	out := []byte("Welcome!\n\n" + envMarker + "\nHOME=/home/u\x00PATH=/bin\x00MULTI=a\nb\x00\n" + envMarker + "\n")
	got, err := parseEnvOutput(out)
	if err != nil || strings.Join(got, "|") != "HOME=/home/u|PATH=/bin|MULTI=a\nb" {
		t.Errorf("parseEnvOutput = %q, %v", got, err)
	}
	if _, err := parseEnvOutput([]byte("no markers")); err == nil {
		t.Error("output without markers accepted")
	}
}

func TestLoginEnvOfRoot(t *testing.T) {
	needRoot(t)
	env, err := loginEnv("root", loginEnvTimeout)
	if err != nil {
		t.Skipf("su is not usable here: %v", err)
	}
	if !contains(env, "HOME=/root") || !contains(env, "USER=root") {
		t.Errorf("root's login environment lacks HOME or USER: %q", env)
	}
}

func contains(env []string, kv string) bool {
	for _, e := range env {
		if e == kv {
			return true
		}
	}
	return false
}

func TestAnnounceLine(t *testing.T) {
	at := mustTime(t, "2026-11-29T10:39:49")
	tests := map[api.TerminateReason]string{
		api.TerminateCancel:  "slurmstepd-cpu001: error: *** JOB 914 ON cpu001 CANCELLED AT 2026-11-29T10:39:49 ***\n",
		api.TerminateRequeue: "slurmstepd-cpu001: error: *** JOB 914 ON cpu001 CANCELLED AT 2026-11-29T10:39:49 DUE TO JOB REQUEUE ***\n",
		api.TerminateTimeout: "slurmstepd-cpu001: error: *** JOB 914 ON cpu001 CANCELLED AT 2026-11-29T10:39:49 DUE TO TIME LIMIT ***\n",
		api.TerminatePreempt: "slurmstepd-cpu001: error: *** JOB 914 ON cpu001 CANCELLED AT 2026-11-29T10:39:49 DUE TO PREEMPTION ***\n",
	}
	for reason, want := range tests {
		if got := announceLine("cpu001", 914, reason, at); got != want {
			t.Errorf("%s: %q, want %q", reason, got, want)
		}
	}
}
