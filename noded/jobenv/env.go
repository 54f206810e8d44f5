package jobenv

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// Input is everything a batch environment is built from.
type Input struct {
	Launch *api.LaunchRequest
	// Node is this node's name; ConfPath the configuration file the
	// daemon read (SLURM_CONF, so commands in the job find the cluster).
	Node     string
	ConfPath string
	// UserEnv is the user's login environment, loaded by the caller when
	// WantsUserEnv says the job asked for it.
	UserEnv []string
}

// protocolTail ends SLURM_WORKING_CLUSTER: Slurm 22.05's protocol version
// and select plugin id, kept so scripts that parse the variable work.
const protocolTail = "9728:109"

// WantsUserEnv reports whether sbatch asked for the user's login
// environment (--export=NONE or a list of names).
func WantsUserEnv(env []string) bool {
	v, ok := lookup(env, "SLURM_GET_USER_ENV")
	return ok && v == "1"
}

// Build returns the batch script's environment.
func Build(in Input) []string {
	l := in.Launch
	var e List
	e.Merge(in.UserEnv...)
	e.Merge(l.Environment...)
	job(&e, in)
	allocation(&e, l)
	batchTask(&e, in.Node)
	array(&e, l)
	gpus(&e, l)
	DefaultTmpDir(&e)
	return e.Entries()
}

// DefaultTmpDir sets TMPDIR to /tmp where the environment has none, as
// slurmstepd does for the batch script and every step's tasks.
func DefaultTmpDir(e *List) {
	if _, ok := e.Get("TMPDIR"); !ok {
		e.Set("TMPDIR", "/tmp")
	}
}

// job sets the variables that describe the job itself.
func job(e *List, in Input) {
	l := in.Launch
	id := u32(l.JobID)
	e.Set("SLURM_JOB_ID", id)
	e.Set("SLURM_JOBID", id)
	e.Set("SLURM_JOB_USER", l.UserName)
	e.Set("SLURM_JOB_UID", u32(l.UserID))
	e.Set("SLURM_JOB_GID", u32(l.GroupID))
	e.Set("SLURM_JOB_PARTITION", l.Partition)
	setIf(e, "SLURM_JOB_ACCOUNT", l.Account)
	setIf(e, "SLURM_JOB_QOS", l.QOS)
	e.Set("SLURM_CLUSTER_NAME", l.ClusterName)
	setIf(e, "SLURM_CONF", in.ConfPath)
	if wc := WorkingCluster(l); wc != "" {
		e.Set("SLURM_WORKING_CLUSTER", wc)
	}
	// SLURM_JOB_NAME and SLURM_SUBMIT_DIR come from sbatch, as in Slurm:
	// a script read from standard input has no SLURM_JOB_NAME, and
	// --export-file may set its own SLURM_SUBMIT_DIR.
	if _, ok := e.Get("SLURM_SUBMIT_DIR"); !ok {
		setIf(e, "SLURM_SUBMIT_DIR", l.SubmitDir)
	}
	setIf(e, "SLURM_SUBMIT_HOST", l.SubmitHost)
	if _, ok := e.Get("SLURM_PRIO_PROCESS"); !ok {
		e.Set("SLURM_PRIO_PROCESS", "0")
	}
	if l.Restarts > 0 {
		e.Set("SLURM_RESTART_COUNT", strconv.Itoa(l.Restarts))
	}
}

// WorkingCluster is SLURM_WORKING_CLUSTER ("cluster:host:port:9728:109"),
// "" when the launch names no controller address.
func WorkingCluster(l *api.LaunchRequest) string {
	host, port, err := net.SplitHostPort(l.ControllerAddr)
	if l.ControllerAddr == "" || err != nil {
		return ""
	}
	return strings.Join([]string{l.ClusterName, host, port, protocolTail}, ":")
}

// allocation sets the nodes, CPUs, tasks and memory of the job.
func allocation(e *List, l *api.LaunchRequest) {
	nodes := len(l.Nodes)
	if nodes == 0 {
		nodes = 1
	}
	list := l.NodeList
	if list == "" {
		list = l.Alloc.Node
	}
	e.Set("SLURM_JOB_NODELIST", list)
	e.Set("SLURM_NODELIST", list)
	e.Set("SLURM_JOB_NUM_NODES", strconv.Itoa(nodes))
	e.Set("SLURM_NNODES", strconv.Itoa(nodes))
	cpus := make([]int, 0, nodes)
	for _, n := range l.Nodes {
		cpus = append(cpus, n.CPUs)
	}
	if len(cpus) == 0 {
		cpus = append(cpus, l.Alloc.CPUs)
	}
	e.Set("SLURM_JOB_CPUS_PER_NODE", Repeated(cpus))
	e.Set("SLURM_CPUS_ON_NODE", strconv.Itoa(l.Alloc.CPUs))
	tasks := l.TasksPerNode
	if len(tasks) == 0 {
		tasks = make([]int, len(cpus))
		for i := range tasks {
			tasks[i] = 1
		}
	}
	e.Set("SLURM_TASKS_PER_NODE", Repeated(tasks))
	if l.NTasks > 0 {
		e.Set("SLURM_NTASKS", strconv.Itoa(l.NTasks))
		e.Set("SLURM_NPROCS", strconv.Itoa(l.NTasks))
	}
	if _, inherited := e.Get("SLURM_CPUS_PER_TASK"); l.CPUsPerTask > 0 || inherited {
		// An inherited value (sbatch run inside a -c3 job) is replaced by
		// the job's own: the peer's script then sees 1.
		e.Set("SLURM_CPUS_PER_TASK", strconv.Itoa(max(l.CPUsPerTask, 1)))
	}
	if l.NTasksPerNode > 0 {
		e.Set("SLURM_NTASKS_PER_NODE", strconv.Itoa(l.NTasksPerNode))
	}
	switch {
	case l.MemPerNode > 0:
		e.Set("SLURM_MEM_PER_NODE", strconv.FormatInt(l.MemPerNode, 10))
	case l.MemPerGPU > 0:
		e.Set("SLURM_MEM_PER_GPU", strconv.FormatInt(l.MemPerGPU, 10))
	case l.MemPerCPU > 0:
		e.Set("SLURM_MEM_PER_CPU", strconv.FormatInt(l.MemPerCPU, 10))
	}
}

// batchTask sets the variables of the batch script as task 0 on node 0.
func batchTask(e *List, node string) {
	e.Set("SLURMD_NODENAME", node)
	for _, k := range []string{"SLURM_NODEID", "SLURM_PROCID", "SLURM_LOCALID", "SLURM_GTIDS"} {
		e.Set(k, "0")
	}
	e.Set("SLURM_TOPOLOGY_ADDR", node)
	e.Set("SLURM_TOPOLOGY_ADDR_PATTERN", "node")
	e.Set("SLURM_NODE_ALIASES", "(null)")
	e.Set("ENVIRONMENT", "BATCH")
	e.Set("HOSTNAME", node)
}

func array(e *List, l *api.LaunchRequest) {
	if l.ArrayTaskID == nil {
		return
	}
	e.Set("SLURM_ARRAY_JOB_ID", u32(l.ArrayJobID))
	e.Set("SLURM_ARRAY_TASK_ID", strconv.Itoa(*l.ArrayTaskID))
	e.Set("SLURM_ARRAY_TASK_COUNT", strconv.Itoa(l.ArrayTaskCount))
	e.Set("SLURM_ARRAY_TASK_MIN", strconv.Itoa(l.ArrayTaskMin))
	e.Set("SLURM_ARRAY_TASK_MAX", strconv.Itoa(l.ArrayTaskMax))
	e.Set("SLURM_ARRAY_TASK_STEP", strconv.Itoa(l.ArrayTaskStep))
}

// gpus sets the GPU variables to global indices on this node; the batch
// host's indices also go to SLURM_JOB_GPUS.
func gpus(e *List, l *api.LaunchRequest) {
	if len(l.Alloc.GPUs) == 0 {
		return
	}
	idx := Indices(l.Alloc.GPUs)
	for _, k := range []string{"CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "ROCR_VISIBLE_DEVICES", "ZE_AFFINITY_MASK"} {
		e.Set(k, idx)
	}
	e.Set("SLURM_GPUS_ON_NODE", strconv.Itoa(len(l.Alloc.GPUs)))
	batch := l.Alloc.GPUs
	if len(l.Nodes) > 0 && !l.Batch {
		// The batch host is the first node unless sbatch --batch chose
		// another, which then runs the script itself.
		batch = l.Nodes[0].GPUs
	}
	if len(batch) > 0 {
		e.Set("SLURM_JOB_GPUS", Indices(batch))
	}
}

// Indices joins GPU indices with commas ("2,3").
func Indices(gpus []int) string {
	s := make([]string, len(gpus))
	for i, g := range gpus {
		s[i] = strconv.Itoa(g)
	}
	return strings.Join(s, ",")
}

// Repeated prints per-node counts as Slurm does: runs of equal values
// become "v(xN)", runs are joined with commas ("2(x3),1").
func Repeated(counts []int) string {
	var parts []string
	for i := 0; i < len(counts); {
		j := i
		for j < len(counts) && counts[j] == counts[i] {
			j++
		}
		if j-i > 1 {
			parts = append(parts, fmt.Sprintf("%d(x%d)", counts[i], j-i))
		} else {
			parts = append(parts, strconv.Itoa(counts[i]))
		}
		i = j
	}
	return strings.Join(parts, ",")
}

func setIf(e *List, k, v string) {
	if v != "" {
		e.Set(k, v)
	}
}

func u32(n uint32) string { return strconv.FormatUint(uint64(n), 10) }
