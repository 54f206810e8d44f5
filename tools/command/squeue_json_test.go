package command

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// peerJSONJobs are jobs the peer ran (testdata/squeue_json_peer.json,
// squeue --json of Slurm 22.05 after the submissions in each comment),
// with the values the peer held, so that the records Loam prints for them
// must be the peer's bytes.
func peerJSONJobs() []api.Job {
	base := api.Job{UserName: "root", GroupName: "root", Partition: "normal", BatchFlag: true,
		WorkDir: "/tmp/s15a", StdIn: "/dev/null", StdOut: "/tmp/s15a/slurm-%j.out", StdErr: "/tmp/s15a/slurm-%j.out",
		Requeue: true, NodeCount: 1, CPUs: 1, Tasks: 1, CPUsPerTask: 1, MinCPUsNode: 1, MemoryPerCPU: 1024,
		TimeLimit: 3600, TRESReqStr: "cpu=1,mem=1G,node=1,billing=1",
		StdOutDefault: true, StdErrDefault: true} // submitted without -o and -e
	running := func(j api.Job, start, limit int64, node string, cpu string) api.Job {
		j.JobState, j.StateReason, j.StartTime, j.EndTime = job.Running, job.ReasonNone, start, start+limit
		j.EligibleTime, j.Nodes, j.BatchHost, j.TimeLimit = start, node, node, limit
		j.TRESAllocStr = j.TRESReqStr
		j.Allocation = []api.NodeAllocation{{Node: node, CPUs: 1, CPUIDs: cpu, Memory: 1024}}
		return j
	}
	ended := func(j api.Job, state job.State, reason job.Reason, at int64, cpu string) api.Job {
		j = running(j, at, 3600, "cpu001", cpu)
		j.JobState, j.StateReason, j.AccrueTime, j.LastSchedEval, j.EndTime = state, reason, at, at, at
		return j
	}

	// sbatch --hold -J held1 --wrap 'sleep 1'
	held := base
	held.JobID, held.Name, held.SubmitTime, held.LastSchedEval = 20504, "held1", 1796008191, 1796008191
	held.JobState, held.StateReason = job.Pending, job.ReasonJobHeldUser

	// sbatch -N2 -t 10 -J multi --wrap 'sleep 600'
	multi := running(base, 1796008192, 600, "cpu001", "0")
	multi.JobID, multi.Name, multi.SubmitTime, multi.LastSchedEval = 20505, "multi", 1796008191, 1796008192
	multi.EligibleTime, multi.AccrueTime, multi.Priority = 1796008191, 1796008191, 25
	multi.Nodes, multi.NodeCount, multi.CPUs, multi.Tasks = "cpu[001-002]", 2, 2, 2
	multi.TRESReqStr, multi.TRESAllocStr = "cpu=2,mem=2G,node=2,billing=2", "cpu=2,mem=2G,node=2,billing=2"
	multi.Allocation = append(multi.Allocation, api.NodeAllocation{Node: "cpu002", CPUs: 1, Memory: 1024})

	// sbatch -a 1-3 --hold -J arr; scontrol release 20506_2: task 2 ran.
	task := 2
	arrTask := ended(base, job.Completed, job.ReasonNone, 1796008202, "1")
	arrTask.JobID, arrTask.ArrayJobID, arrTask.ArrayTaskID, arrTask.Name = 20509, 20506, &task, "arr"
	arrTask.SubmitTime, arrTask.EndTime, arrTask.Priority, arrTask.AccrueTime = 1796008191, 1796008203, 12, 0
	arrTask.StdOut, arrTask.StdErr = "/tmp/s15a/slurm-%A_%a.out", "/tmp/s15a/slurm-%A_%a.out"

	// sbatch -J fail --wrap 'exit 3'; sbatch -J ok -o /tmp/s15a/ok-%j.out --wrap true
	fail := ended(base, job.Failed, job.ReasonNonZeroExitCode, 1796008202, "2")
	fail.JobID, fail.Name, fail.SubmitTime, fail.Priority, fail.ExitCode = 20507, "fail", 1796008202, 12, job.ExitCode{Status: 3}
	ok := ended(base, job.Completed, job.ReasonNone, 1796008202, "3")
	ok.JobID, ok.Name, ok.SubmitTime, ok.Priority = 20508, "ok", 1796008202, 12
	ok.StdOut, ok.StdErr, ok.StdOutDefault = "/tmp/s15a/ok-%j.out", "/tmp/s15a/ok-%j.out", false

	return append([]api.Job{held, multi, arrTask, fail, ok}, peerJSONJobs2(base, running)...)
}

func peerJSONJobs2(base api.Job, running func(api.Job, int64, int64, string, string) api.Job) []api.Job {
	// sbatch --hold -J opts -c 2 -n 4 --ntasks-per-node=2 --mem=2G -C cpu -x gpu001 --nice=10
	//   --comment=hello -o out-%j.txt -e err-%j.txt --no-requeue --time-min=5 -t 30
	opts := base
	opts.JobID, opts.Name, opts.SubmitTime, opts.LastSchedEval = 20541, "opts", 1796008379, 1796008379
	opts.JobState, opts.StateReason, opts.Comment, opts.Nice = job.Pending, job.ReasonJobHeldUser, "hello", 10
	opts.ExcludedNodes, opts.Features, opts.TasksPerNode, opts.CPUsPerTask = "gpu001", "cpu", 2, 2
	opts.NodeCount, opts.CPUs, opts.Tasks, opts.MinCPUsNode = 2, 8, 4, 4
	opts.MemoryPerNode, opts.MemoryPerCPU, opts.Requeue, opts.TimeLimit, opts.TimeMinimum = 2048, 0, false, 1800, 300
	opts.StdOut, opts.StdErr, opts.TRESReqStr = "/tmp/s15a/out-%j.txt", "/tmp/s15a/err-%j.txt", "cpu=8,mem=2G,node=1,billing=8"
	opts.StdOutDefault, opts.StdErrDefault = false, false

	// sbatch -J gpus -p batch --gres=gpu:2 --exclusive -w gpu002 -t 5
	gpus := running(base, 1796008379, 300, "gpu002", "")
	gpus.JobID, gpus.Name, gpus.SubmitTime, gpus.LastSchedEval = 20542, "gpus", 1796008379, 1796008379
	gpus.Partition, gpus.Priority, gpus.AccrueTime, gpus.CPUs = "batch", 12, 1796008379, 64
	gpus.RequiredNodes, gpus.Exclusive, gpus.TRESPerNode = "gpu002", "exclusive", "gres:gpu:2"
	gpus.GRESDetail, gpus.TRESAllocStr = []string{"gpu:8(IDX:0-7)"}, "cpu=64,mem=64G,node=1,billing=64"
	gpus.Allocation[0].CPUs, gpus.Allocation[0].Memory = 64, 65536

	// sbatch -J arrun -a 1-4%2 -t 5: tasks 1 and 2 run, 3-4 wait.
	task := 1
	arrun := running(base, 1796008379, 300, "cpu001", "3")
	arrun.JobID, arrun.ArrayJobID, arrun.ArrayTaskID, arrun.ArrayMaxTasks = 20546, 20543, &task, 2
	arrun.Name, arrun.SubmitTime, arrun.LastSchedEval, arrun.Priority, arrun.AccrueTime = "arrun", 1796008379, 1796008379, 12, 1796008379
	arrun.StdOut, arrun.StdErr = "/tmp/s15a/slurm-%A_%a.out", "/tmp/s15a/slurm-%A_%a.out"
	rest := base
	rest.JobID, rest.ArrayJobID, rest.ArrayTaskString, rest.ArrayMaxTasks = 20543, 20543, "3-4", 2
	rest.Name, rest.SubmitTime, rest.LastSchedEval, rest.Priority, rest.AccrueTime = "arrun", 1796008379, 1796008379, 12, 1796008379
	rest.JobState, rest.StateReason, rest.TimeLimit = job.Pending, job.ReasonJobArrayTaskLimit, 300
	rest.StdOut, rest.StdErr = "/tmp/s15a/slurm-%A_%a.out", "/tmp/s15a/slurm-%A_%a.out"

	// sbatch --hold -J dep -d afterok:20505 --begin=now+1hour --mem-per-cpu=500 --gpus=3
	dep := base
	dep.JobID, dep.Name, dep.SubmitTime, dep.LastSchedEval = 20544, "dep", 1796008379, 1796008379
	dep.JobState, dep.StateReason, dep.Dependency = job.Pending, job.ReasonJobHeldUser, "afterok:20505(unfulfilled)"
	dep.AccrueTime, dep.EligibleTime, dep.StartTime, dep.EndTime = 1796011979, 1796011979, 1796011979, 1796015579
	dep.MemoryPerCPU, dep.TRESPerJob, dep.TRESReqStr = 500, "gres:gpu:3", "cpu=1,mem=500M,node=1,billing=1"
	return []api.Job{opts, gpus, arrun, rest, dep}
}

func peerJSONController() *fakeController {
	f := &fakeController{jobs: peerJSONJobs(), config: api.ConfigResponse{ClusterName: "peer"}}
	for _, p := range []string{"urgent", "normal", "batch"} {
		f.partitions = append(f.partitions, api.Partition{Name: p, DefMemPerCPU: 1024})
	}
	for i := 1; i <= 2; i++ {
		f.nodes = append(f.nodes, api.Node{Name: "cpu00" + strconv.Itoa(i), CPUs: 32, Sockets: 2, CoresPerSocket: 16, ThreadsPerCore: 1})
		f.nodes = append(f.nodes, api.Node{Name: "gpu00" + strconv.Itoa(i), CPUs: 64, Sockets: 2, CoresPerSocket: 32, ThreadsPerCore: 1})
	}
	return f
}

// TestSqueueJSONPeerRecords: each job record Loam prints is, byte for
// byte, the record the peer printed for the same job, in JSON and YAML.
func TestSqueueJSONPeerRecords(t *testing.T) {
	for format, split := range map[string]func(string) map[string]string{
		"json": jsonRecords, "yaml": yamlRecords,
	} {
		t.Run(format, func(t *testing.T) {
			te := newTestEnv(peerJSONController(), 1796008400)
			if code := Squeue(context.Background(), te.Env, []string{"--" + format}); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			peerFile := map[string]string{"json": "squeue_json_peer.json", "yaml": "squeue_yaml_peer.yaml"}[format]
			want := split(string(readTestdata(t, peerFile)))
			got := split(te.stdout.String())
			if len(got) != len(peerJSONJobs()) {
				t.Fatalf("got %d records, want %d:\n%s", len(got), len(peerJSONJobs()), te.stdout)
			}
			for id, rec := range got {
				if diff := cmp.Diff(want[id], rec); diff != "" {
					t.Errorf("job %s (-peer +loam):\n%s", id, diff)
				}
			}
		})
	}
}

var (
	jsonJobID = regexp.MustCompile(`\n      "job_id": (\d+),`)
	yamlJobID = regexp.MustCompile(`\n  !!str job_id: !!int (\d+)\n`)
)

// jsonRecords splits squeue --json's text into its job records by id.
func jsonRecords(s string) map[string]string {
	return splitRecords(s, "\n    {\n", "\n    }", jsonJobID)
}

func yamlRecords(s string) map[string]string {
	return splitRecords(s, "\n- !!map\n", "\n...\n", yamlJobID)
}

// splitRecords cuts s at each sep; a record ends before the last end
// mark in its part (the closing brace, or YAML's end of document).
func splitRecords(s, sep, end string, id *regexp.Regexp) map[string]string {
	recs := map[string]string{}
	parts := strings.Split(s, sep)
	for _, p := range parts[1:] {
		if i := strings.LastIndex(p, end); i >= 0 {
			p = p[:i]
		}
		if m := id.FindStringSubmatch(p); m != nil {
			recs[m[1]] = p
		}
	}
	return recs
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSqueueJSONOptions: as on the peer, the last of --json and --yaml
// wins, filters and formats are ignored, and bad values still fail.
func TestSqueueJSONOptions(t *testing.T) {
	cases := map[string]struct {
		args    []string
		prefix  string
		records int
		stderr  string
		exit    int
	}{
		"json":                    {args: []string{"--json"}, prefix: "{\n  \"meta\": {\n", records: 10},
		"yaml":                    {args: []string{"--yaml"}, prefix: "%YAML 1.1\n--- !!map\n!!str meta: !!map\n", records: 10},
		"yaml then json":          {args: []string{"--yaml", "--json"}, prefix: "{\n", records: 10},
		"json then yaml":          {args: []string{"--json", "--yaml"}, prefix: "%YAML 1.1\n", records: 10},
		"filters ignored":         {args: []string{"--json", "-u", "nobody", "-t", "R", "-p", "batch", "-j", "1", "-o", "%i"}, prefix: "{\n", records: 10},
		"steps and start ignored": {args: []string{"--json", "-s", "--start", "-i", "5"}, prefix: "{\n", records: 10},
		"bad state":               {args: []string{"--json", "-t", "BOGUS"}, stderr: "squeue: error: Invalid job state specified: BOGUS\n", exit: 1},
		"unknown user goes on":    {args: []string{"--json", "-u", "nosuchuser"}, prefix: "{\n", records: 10, stderr: "squeue: error: Invalid user: nosuchuser\n\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(peerJSONController(), 1796008400)
			code := Squeue(context.Background(), te.Env, tc.args)
			if code != tc.exit {
				t.Fatalf("exit %d, want %d (stderr %q)", code, tc.exit, te.stderr)
			}
			if !strings.HasPrefix(te.stderr.String(), tc.stderr) {
				t.Errorf("stderr %q, want it to start with %q", te.stderr, tc.stderr)
			}
			out := te.stdout.String()
			if !strings.HasPrefix(out, tc.prefix) {
				t.Errorf("stdout starts %q, want %q", out[:min(len(out), 40)], tc.prefix)
			}
			recs := len(jsonRecords(out)) + len(yamlRecords(out))
			if recs != tc.records {
				t.Errorf("%d records, want %d", recs, tc.records)
			}
		})
	}
}
