//go:build integration

package test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// topConf has the peer's layout that top and notify care about: a default
// partition and a second one, so a job may ask for both.
const topConf = `PartitionName=normal Nodes=ALL Default=YES MaxTime=UNLIMITED DefaultTime=01:00:00 State=UP
PartitionName=batch Nodes=ALL MaxTime=UNLIMITED DefaultTime=01:00:00 State=UP
`

// peerRun is one case of testdata/top-notify-peer.txt.
type peerRun struct {
	args   string
	code   int
	stdout string
	stderr string
}

func readTopNotifyPeer(t *testing.T) []peerRun {
	t.Helper()
	f, err := os.Open("testdata/top-notify-peer.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []peerRun
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		if args, ok := strings.CutPrefix(line, "case "); ok {
			out = append(out, peerRun{args: args})
			continue
		}
		cur := &out[len(out)-1]
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "exit":
			cur.code, _ = strconv.Atoi(val)
		case "stdout":
			cur.stdout += val + "\n"
		case "stderr":
			cur.stderr += val + "\n"
		case "stderr-ends-without-newline":
			cur.stderr = strings.TrimSuffix(cur.stderr, "\n")
		default:
			t.Fatalf("line %q", line)
		}
	}
	if len(out) == 0 {
		t.Fatal("no cases in testdata/top-notify-peer.txt")
	}
	return out
}

// sbatchID submits with bin/sbatch --parsable and returns the job id.
func (lc *liveCluster) sbatchID(args ...string) string {
	lc.t.Helper()
	code, out, errs := lc.runTool("sbatch", append([]string{"--parsable"}, args...)...)
	if code != 0 {
		lc.t.Fatalf("sbatch %q: exit %d: %s", args, code, errs)
	}
	return strings.TrimSpace(out)
}

// TestTopNotifyMatchThePeer runs every case the peer answered
// (testdata/top-notify-peer.txt, from top-notify-capture.sh) with
// bin/scontrol against loam-ctld, on jobs in the same states, and
// compares exit status and output byte for byte. Notify to a running
// batch job, which the capture lacks, exits 0 without output as on the
// peer (TestNotifyDeliver checks where the message lands).
func TestTopNotifyMatchThePeer(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 1, Extra: topConf}, "")
	run := lc.submit(lc.script(gated("run")))
	t.Cleanup(func() { lc.touch("gate-run") })
	done := lc.submit(lc.script("true"))
	ids := map[string]string{
		"@PEND@":  lc.sbatchID("--begin=now+1hour", "--wrap", "true"),
		"@HELD@":  lc.sbatchID("-H", "--wrap", "true"),
		"@MULTI@": lc.sbatchID("-p", "normal,batch", "--begin=now+1hour", "--wrap", "true"),
		"@RUN@":   fmt.Sprint(run),
		"@DONE@":  fmt.Sprint(done),
	}
	lc.waitState(run, job.Running)
	lc.waitState(done, job.Completed)
	toIDs := func(s string) string {
		for k, v := range ids {
			s = strings.ReplaceAll(s, k, v)
		}
		return s
	}
	// Only the ids a case names can show in its output; Loam's ids are
	// small numbers that may also be literal arguments ("_1").
	toMarks := func(args, s string) string {
		for k, v := range ids {
			if !strings.Contains(args, k) {
				continue
			}
			s = regexp.MustCompile(`(^|[^0-9])`+v+`([^0-9]|$)`).ReplaceAllString(s, "${1}"+k+"${2}")
		}
		return s
	}
	cases := append(readTopNotifyPeer(t), peerRun{args: "notify @RUN@ hello"})
	for _, pc := range cases {
		code, out, errs := lc.runTool("scontrol", strings.Fields(toIDs(pc.args))...)
		got := peerRun{args: pc.args, code: code, stdout: toMarks(pc.args, out), stderr: toMarks(pc.args, errs)}
		if diff := cmp.Diff(pc, got, cmp.AllowUnexported(peerRun{})); diff != "" {
			t.Errorf("scontrol %s (-peer +loam):\n%s", pc.args, diff)
		}
	}
}

// TestTopMovesTheJob: the peer's case (testdata of ctld/controller's
// top-peer.txt, first case) live: three pending jobs at priorities P+26,
// P+13 and P; top of the last gives it P+26 with nice -26, and the others
// P+13 and P with nice -13 and 0, as squeue shows, and it stays so after
// the scheduler's next cycles.
func TestTopMovesTheJob(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 1, Extra: topConf}, "")
	a := lc.sbatchID("--begin=now+1hour", "--nice=-26", "--wrap", "true")
	b := lc.sbatchID("--begin=now+1hour", "--nice=-13", "--wrap", "true")
	c := lc.sbatchID("--begin=now+1hour", "--wrap", "true")
	list := a + "," + b + "," + c
	prios := func() map[string][2]int64 {
		_, out, _ := lc.runTool("squeue", "-h", "-j", list, "-o", "%i %Q %y")
		m := map[string][2]int64{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var id string
			var p, n int64
			if _, err := fmt.Sscan(line, &id, &p, &n); err == nil {
				m[id] = [2]int64{p, n}
			}
		}
		return m
	}
	var before map[string][2]int64
	lc.eventually("priorities from a cycle", func() error {
		before = prios()
		if len(before) != 3 || before[c][0] < 1 || before[a][0] != before[c][0]+26 || before[b][0] != before[c][0]+13 {
			return fmt.Errorf("priorities %v", before)
		}
		return nil
	})
	if code, out, errs := lc.runTool("scontrol", "top", c); code != 0 || out != "" || errs != "" {
		t.Fatalf("scontrol top %s: exit %d %q %q", c, code, out, errs)
	}
	p := before[c][0]
	want := map[string][2]int64{c: {p + 26, -26}, a: {p + 13, -13}, b: {p, 0}}
	if diff := cmp.Diff(want, prios()); diff != "" {
		t.Errorf("right after top (-want +got):\n%s", diff)
	}
	// A later cycle computes the priorities from the factors and the new
	// nice values (its factors show them): the order must hold.
	lc.eventually("a cycle with the new nice values", func() error {
		resp, err := lc.cl.Priorities(context.Background(), &api.PrioQuery{})
		if err != nil {
			return err
		}
		for _, j := range resp.Jobs {
			if w, ok := want[fmt.Sprint(j.JobID)]; ok && int64(j.Factors.Nice) != w[1] {
				return fmt.Errorf("job %d factors %+v", j.JobID, j.Factors)
			}
		}
		return nil
	})
	if diff := cmp.Diff(want, prios()); diff != "" {
		t.Errorf("after the next cycle (-want +got):\n%s", diff)
	}
}

// TestTestOnlyIgnoresTheCap: a job that only its tenant's GPU cap would
// keep waiting gets, from sbatch --test-only, the start and node the free
// GPUs allow (now, on a node, with its processors), as Slurm's will-run
// test ignores association limits; submitted for real, it waits for the
// cap.
func TestTestOnlyIgnoresTheCap(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, GPUs: 2}, "TenantName=lab GrpTRES=gres/gpu=2\nUserName=root Accounts=lab\n")
	first := lc.submit(lc.script(gated("first"), withGPUs(2), account("lab")))
	t.Cleanup(func() { lc.touch("gate-first") })
	lc.waitState(first, job.Running)

	code, out, errs := lc.runTool("sbatch", "--test-only", "-A", "lab", "--gres=gpu:2", "--wrap", "true")
	re := regexp.MustCompile(`^sbatch: Job \d+ to start at (\S+) using (\d+) processors on nodes (n0[12]) in partition normal\n$`)
	m := re.FindStringSubmatch(errs)
	if code != 0 || out != "" || m == nil || m[2] == "0" {
		t.Fatalf("sbatch --test-only under the cap: exit %d stdout %q stderr %q", code, out, errs)
	}

	capped := lc.submit(lc.script("true", withGPUs(2), account("lab")))
	lc.waitJob(capped, "waiting for the cap", func(j api.Job) bool {
		return j.JobState == job.Pending && j.StateReason == "AssocGrpGRES"
	})
}
