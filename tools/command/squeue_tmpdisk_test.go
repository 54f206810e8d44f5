package command

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// tmpDiskJobs are the peer's held jobs of testdata/peer/squeue_tmpdisk*.txt:
// sbatch --hold --tmp=V --wrap true for V in 2000 1536 10240 1G 1T 10k 0
// (10k rounds up to 1 MB).
func tmpDiskJobs() []api.Job {
	var out []api.Job
	for i, mb := range []int64{2000, 1536, 10240, 1024, 1048576, 1, 0} {
		out = append(out, api.Job{JobID: uint32(292 + i), UserName: "root", Partition: "normal", BatchFlag: true,
			JobState: job.Pending, StateReason: job.ReasonJobHeldUser, NodeCount: 1, CPUs: 1, Name: "wrap",
			MinTmpDisk: mb, MemoryPerCPU: 1024, MinMemory: 1024})
	}
	return out
}

// TestSqueueTmpDisk: squeue %d prints --tmp as the peer does, converted
// to the largest unit, or in megabytes with --noconvert.
func TestSqueueTmpDisk(t *testing.T) {
	for file, args := range map[string][]string{
		"squeue_tmpdisk.txt":           {"-S", "i", "-o", "%i|%d|%10d|%.6d"},
		"squeue_tmpdisk_noconvert.txt": {"-S", "i", "--noconvert", "-o", "%i|%d"},
	} {
		t.Run(file, func(t *testing.T) {
			want, err := os.ReadFile("testdata/peer/" + file)
			if err != nil {
				t.Fatal(err)
			}
			te := newTestEnv(&fakeController{now: 1796008400, jobs: tmpDiskJobs()}, 1796008400)
			code := Squeue(context.Background(), te.Env, args)
			if diff := cmp.Diff(string(want), te.stdout.String()); diff != "" || code != 0 {
				t.Errorf("exit %d, stderr %q; stdout (-want +got):\n%s", code, te.stderr, diff)
			}
		})
	}
}

// TestScontrolShowJobTmpDisk: scontrol show job prints MinTmpDiskNode as
// the peer does for the same jobs.
func TestScontrolShowJobTmpDisk(t *testing.T) {
	want := []string{"2000M", "1.50G", "10G", "1G", "1T", "1M", "0"}
	for i, j := range tmpDiskJobs() {
		te := newTestEnv(&fakeController{now: 1796008400, jobs: []api.Job{j}}, 1796008400)
		Scontrol(context.Background(), te.Env, []string{"show", "job", strconv.Itoa(int(j.JobID))})
		line := "   MinCPUsNode=1 MinMemoryCPU=1G MinTmpDiskNode=" + want[i] + "\n"
		if !strings.Contains(te.stdout.String(), line) {
			t.Errorf("job %d: scontrol show job lacks %q:\n%s", j.JobID, line, te.stdout.String())
		}
	}
}
