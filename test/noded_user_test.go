//go:build integration

package test

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/loamhpc/loam/noded/nodedtest"
	"github.com/loamhpc/loam/pkg/api"
)

func testGroup(t *testing.T, name string) uint32 {
	t.Helper()
	_ = exec.Command("groupdel", name).Run()
	if out, err := exec.Command("groupadd", name).CombinedOutput(); err != nil {
		t.Fatalf("groupadd %s: %v: %s", name, err, out)
	}
	t.Cleanup(func() { _ = exec.Command("groupdel", name).Run() })
	g, err := user.LookupGroup(name)
	if err != nil {
		t.Fatal(err)
	}
	gid, _ := strconv.Atoi(g.Gid)
	return uint32(gid)
}

func ownedDir(t *testing.T, uid, gid uint32, mode os.FileMode) string {
	t.Helper()
	d := t.TempDir()
	if err := os.Chown(d, int(uid), int(gid)); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(d, mode); err != nil {
		t.Fatal(err)
	}
	// t.TempDir's parent is private to root; let the users through.
	if err := os.Chmod(filepath.Dir(d), 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestNodedRunsAsUser: a job runs with its user's uid, gid and
// supplementary groups; its output file belongs to the user; it cannot
// write another user's files, and naming another user's file as its
// output fails the launch without touching that file.
func TestNodedRunsAsUser(t *testing.T) {
	nodedBin(t)
	shared := testGroup(t, "loamitg")
	uid1, gid1 := nodedtest.User(t, "loamit1", "loamitg")
	uid2, gid2 := nodedtest.User(t, "loamit2")
	cl := nodedCluster(t, nodedtestSpec())
	p := startNoded(t, cl, 0)
	n := cl.Nodes[0]

	home1 := ownedDir(t, uid1, gid1, 0o755)
	home2 := ownedDir(t, uid2, gid2, 0o755)
	groupDir := ownedDir(t, 0, shared, 0o775)
	victim := filepath.Join(home2, "results.txt")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(victim, int(uid2), int(gid2)); err != nil {
		t.Fatal(err)
	}
	asUser1 := func(id uint32, script string) *api.LaunchRequest {
		req := batch(t, n, id, script)
		req.UserName, req.UserID, req.GroupID, req.Groups = "loamit1", uid1, gid1, []uint32{gid1, shared}
		req.WorkDir, req.StdOut = home1, filepath.Join(home1, "slurm-%j.out")
		return req
	}

	j1 := asUser1(301, `echo "uid=$(id -u) gid=$(id -g) groups=$(id -G)"
{ echo hack >> `+victim+`; } 2>/dev/null && echo WROTE || echo DENIED
{ touch `+home2+`/new; } 2>/dev/null && echo CREATED || echo NOCREATE
echo ok > `+groupDir+`/by-group && echo GROUPWRITE`)
	p.launch(j1)
	if ev := ended(t, cl, 301); ev.ExitCode.String() != "0:0" {
		t.Fatalf("job ended %+v", ev)
	}
	want := fmt.Sprintf("uid=%d gid=%d groups=%d %d\nDENIED\nNOCREATE\nGROUPWRITE\n", uid1, gid1, gid1, shared)
	if got := output(t, j1); got != want {
		t.Errorf("job output = %q, want %q", got, want)
	}
	fi, err := os.Stat(filepath.Join(home1, "slurm-301.out"))
	if err != nil || fi.Sys().(*syscall.Stat_t).Uid != uid1 {
		t.Errorf("output file %v owned by %v, want uid %d", err, fi.Sys().(*syscall.Stat_t).Uid, uid1)
	}

	j2 := asUser1(302, "echo overwritten")
	j2.StdOut = victim
	p.launch(j2)
	ev := ended(t, cl, 302)
	if ev.Kind != "launch_failed" || ev.Message != "Could not open stdout file "+victim+": Permission denied" {
		t.Errorf("launch writing another user's file = %+v", ev)
	}
	if data, _ := os.ReadFile(victim); string(data) != "precious\n" {
		t.Errorf("other user's file now holds %q", data)
	}
}

// TestNodedUmask: the batch script runs with the umask sbatch sent
// (SLURM_UMASK), and, as under slurmstepd, without SLURM_UMASK in its
// environment.
func TestNodedUmask(t *testing.T) {
	cl := nodedCluster(t, nodedtestSpec())
	p := startNoded(t, cl, 0)
	req := batch(t, cl.Nodes[0], 311, `umask; echo "SLURM_UMASK=${SLURM_UMASK-unset}"`)
	req.Environment = append(req.Environment, "SLURM_UMASK=0027")
	p.launch(req)
	if ev := ended(t, cl, 311); ev.ExitCode.String() != "0:0" {
		t.Fatalf("job ended %+v", ev)
	}
	if got, want := output(t, req), "0027\nSLURM_UMASK=unset\n"; got != want {
		t.Errorf("job output = %q, want %q", got, want)
	}
}
