//go:build integration

package test

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/loamhpc/loam/noded/nodedtest"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestPrivateDataRealUsers: with PrivateData=jobs,nodes,partitions two
// real users each see only their own job, the other's id is Slurm's
// "Invalid job id specified" (exit 1), sinfo is refused as on the peer,
// and root sees both jobs.
func TestPrivateDataRealUsers(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 4, Extra: "PrivateData=jobs,nodes,partitions\n"})
	uid1, gid1 := nodedtest.User(t, "loampd1")
	uid2, gid2 := nodedtest.User(t, "loampd2")
	u1, u2 := &syscall.Credential{Uid: uid1, Gid: gid1}, &syscall.Credential{Uid: uid2, Gid: gid2}
	if err := os.Chmod(s.c.Dir, 0o755); err != nil { // the users read slurm.conf there
		t.Fatal(err)
	}
	dir := sharedDir(t)
	submit := func(cred *syscall.Credential) string {
		r := s.run(t, dir, cred, "", nil, "sbatch", "--parsable", "--hold", "--wrap", "true")
		id := strings.TrimSpace(r.stdout)
		if _, err := strconv.Atoi(id); err != nil || r.code != 0 {
			t.Fatalf("sbatch: exit %d %q %q", r.code, r.stdout, r.stderr)
		}
		t.Cleanup(func() { s.run(t, dir, nil, "", nil, "scancel", id) })
		return id
	}
	a, b := submit(u1), submit(u2)
	ids := func(cred *syscall.Credential) string {
		r := s.run(t, dir, cred, "", nil, "squeue", "-h", "-o", "%i")
		f := strings.Fields(r.stdout)
		slices.Sort(f)
		return strings.Join(f, ",")
	}
	if got, want := ids(u1), a; got != want {
		t.Errorf("loampd1's squeue lists %q, want %q", got, want)
	}
	both := []string{a, b}
	slices.Sort(both)
	if got, want := ids(nil), strings.Join(both, ","); got != want {
		t.Errorf("root's squeue lists %q, want %q", got, want)
	}
	const invalid = "slurm_load_jobs error: Invalid job id specified\n"
	for _, args := range [][]string{{"squeue", "-j", b}, {"scontrol", "show", "job", b}} {
		if r := s.run(t, dir, u1, "", nil, args[0], args[1:]...); r.code != 1 || r.stderr != invalid || r.stdout != "" {
			t.Errorf("loampd1's %v: exit %d %q %q, want exit 1 %q", args, r.code, r.stdout, r.stderr, invalid)
		}
	}
	const denied = "slurm_load_partitions: Access/permission denied\n"
	if r := s.run(t, dir, u1, "", nil, "sinfo"); r.code != 1 || r.stderr != denied {
		t.Errorf("loampd1's sinfo: exit %d %q, want exit 1 %q", r.code, r.stderr, denied)
	}
	if r := s.run(t, dir, nil, "", nil, "sinfo", "-h", "-o", "%P"); r.code != 0 || r.stdout == "" {
		t.Errorf("root's sinfo: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
}
