package nodedtest

import (
	"os/exec"
	"os/user"
	"strconv"
	"strings"
	"testing"
)

// User creates system user name (replacing a leftover one), member of
// groups, removed when the test ends, and returns its uid and gid. It
// needs root.
func User(t testing.TB, name string, groups ...string) (uint32, uint32) {
	t.Helper()
	_ = exec.Command("userdel", name).Run()
	args := []string{"-M", "-s", "/bin/bash", "-d", "/nonexistent"}
	if len(groups) > 0 {
		args = append(args, "-G", strings.Join(groups, ","))
	}
	if out, err := exec.Command("useradd", append(args, name)...).CombinedOutput(); err != nil {
		t.Fatalf("useradd %s: %v: %s", name, err, out)
	}
	t.Cleanup(func() { _ = exec.Command("userdel", name).Run() })
	u, err := user.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return uint32(uid), uint32(gid)
}
