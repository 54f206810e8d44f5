//go:build integration

package test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/loamhpc/loam/noded/nodedtest"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestSbcastTwoNodeJob stages a file on both nodes of a user's running
// two-node job: both node daemons write it (as the job's user) and say
// so; without -f an existing file is refused on every node with Slurm's
// message and status; -f replaces it; a directory the user may not write
// is refused; another user may not sbcast to the job.
func TestSbcastTwoNodeJob(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 2, CPUs: 4})
	uid, gid := nodedtest.User(t, "loamsbc1")
	other, otherGID := nodedtest.User(t, "loamsbc2")
	me := &syscall.Credential{Uid: uid, Gid: gid}
	if err := os.Chmod(s.c.Dir, 0o755); err != nil { // the users read slurm.conf there
		t.Fatal(err)
	}
	dir := ownedDir(t, uid, gid, 0o755)
	jobDir := sharedDir(t)
	r := s.run(t, jobDir, me, "", nil, "sbatch", "--parsable", "-N2", "-o", filepath.Join(jobDir, "out.txt"), "--wrap", "sleep 300")
	id, err := strconv.ParseUint(strings.TrimSpace(r.stdout), 10, 32)
	if err != nil || r.code != 0 {
		t.Fatalf("sbatch: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	jobID := strconv.FormatUint(id, 10)
	t.Cleanup(func() { s.run(t, jobDir, nil, "", nil, "scancel", jobID) })
	s.waitJob(t, uint32(id), job.Running, nodedWait)

	src := filepath.Join(dir, "src.bin")
	data := strings.Repeat("stage me\n", 20000) // 180 kB: several 64 kB chunks with -s 64k
	if err := os.WriteFile(src, []byte(data), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(src, int(uid), int(gid)); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(dir, "staged.bin")
	sbcast := func(cred *syscall.Credential, args ...string) cmdRun {
		return s.run(t, dir, cred, "", []string{"SLURM_JOB_ID=" + jobID}, "sbcast", args...)
	}

	if r := sbcast(me, "-f", "-s", "64k", "src.bin", "staged.bin"); r.code != 0 || r.stderr != "" {
		t.Fatalf("sbcast -f: exit %d, stderr %q", r.code, r.stderr)
	}
	got, err := os.ReadFile(dest)
	if err != nil || string(got) != data {
		t.Fatalf("staged file: %d bytes, %v", len(got), err)
	}
	fi, _ := os.Stat(dest)
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != uid || st.Gid != gid || fi.Mode().Perm() != 0o750 {
		t.Errorf("staged file owned by %d:%d mode %o, want %d:%d 750", st.Uid, st.Gid, fi.Mode().Perm(), uid, gid)
	}
	for _, node := range []string{clustertest.NodeName(0), clustertest.NodeName(1)} {
		log, _ := os.ReadFile(filepath.Join(s.c.Dir, node+".log"))
		if !strings.Contains(string(log), `msg="sbcast file written"`) || !strings.Contains(string(log), "path="+dest) {
			t.Errorf("%s did not report writing %s", node, dest)
		}
	}

	r = sbcast(me, "src.bin", dest)
	want := "sbcast: error: REQUEST_FILE_BCAST(" + clustertest.NodeName(0) + "): File exists\n" +
		"sbcast: error: REQUEST_FILE_BCAST(" + clustertest.NodeName(1) + "): File exists\n"
	if r.code != 17 || sbcastSortedLines(r.stderr) != want {
		t.Errorf("sbcast onto an existing file: exit %d, stderr %q; want 17, %q", r.code, r.stderr, want)
	}

	if err := os.WriteFile(src, []byte("replaced\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if r := sbcast(me, "--force", "src.bin", dest); r.code != 0 || r.stderr != "" {
		t.Errorf("sbcast --force: exit %d, stderr %q", r.code, r.stderr)
	}
	if got, _ := os.ReadFile(dest); string(got) != "replaced\n" {
		t.Errorf("after --force the file holds %q", got)
	}

	r = sbcast(me, "src.bin", "/root/loam-sbcast-denied")
	if r.code != 13 || !strings.Contains(r.stderr, "Permission denied") {
		t.Errorf("sbcast into /root: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat("/root/loam-sbcast-denied"); err == nil {
		os.Remove("/root/loam-sbcast-denied")
		t.Errorf("the job's user wrote into /root")
	}

	r = sbcast(&syscall.Credential{Uid: other, Gid: otherGID}, "-j", jobID, "/etc/hostname", "/tmp/loam-sbcast-other")
	wantErr := "sbcast: error: Slurm job " + jobID + " lookup error: Access/permission denied\n"
	if r.code != 255 || r.stderr != wantErr {
		t.Errorf("another user's sbcast: exit %d, stderr %q; want 255, %q", r.code, r.stderr, wantErr)
	}
}

// sbcastSortedLines sorts lines: nodes answer in parallel.
func sbcastSortedLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "")
}
