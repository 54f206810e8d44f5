package controller

import (
	"net"
	"strconv"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// launchRequest builds the launch of r on its i-th node; the batch host
// (batch_host.go) runs the script.
func (c *Controller) launchRequest(r *jobRecord, i int) *api.LaunchRequest {
	q, st := r.Req, &r.St
	conf := c.confNow().conf
	req := &api.LaunchRequest{
		JobID: r.ID, Name: q.Name, Batch: st.Alloc[i].Node == st.BatchHost && q.Script != "", // no script: an interactive allocation
		UserID: q.UserID, GroupID: q.GroupID, Groups: st.Groups, UserName: q.UserName,
		Script: q.Script, Environment: q.Environment, WorkDir: q.WorkDir,
		StdOut: q.StdOut, StdErr: q.StdErr, StdIn: q.StdIn, OpenMode: c.openMode(q),
		Alloc: st.Alloc[i], Nodes: st.Alloc, NodeList: allocNodes(st.Alloc),
		// -n and -c as given: SLURM_NTASKS and SLURM_CPUS_PER_TASK are set
		// only when asked for, as srun in the job reads them.
		NTasks: launchTasks(q, len(st.Alloc)), TasksPerNode: tasksPerNode(q, st.Alloc), CPUsPerTask: q.CPUsPerTask,
		NTasksPerNode: q.NTasksPerNode,
		TimeLimit:     st.TimeLimit, StartTime: st.Start, Signal: q.Signal,
		KillWait: int64(conf.KillWait / time.Second), Restarts: st.Restarts,
		ClusterName: conf.ClusterName, Partition: st.Partition, Account: st.Account, QOS: q.QOS,
		SubmitHost: q.SubmitHost, SubmitDir: q.SubmitDir, ControllerAddr: c.controllerAddr(),
		Constraints: featuresUsed(conf, q, st.Alloc), // the node prolog's SLURM_JOB_CONSTRAINTS (prefer.go)
	}
	if len(q.Argv) > 1 {
		req.Argv = q.Argv[1:]
	}
	over := overTime(conf, st.Partition) // limits.go: OverTimeLimit
	req.TimeLimit, req.Signal = enforcedLimit(req.TimeLimit, over), enforcedSignal(req.Signal, over)
	if q.MemPerCPU != nil {
		req.MemPerCPU = *q.MemPerCPU
	} else if q.MemPerNode == nil && q.MemPerGPU == nil {
		// The partition's DefMemPerCPU or DefMemPerNode (memlimits.go):
		// SLURM_MEM_PER_CPU or SLURM_MEM_PER_NODE in the job.
		req.MemPerCPU, req.MemPerNode = defaultMemory(conf, st.Partition)
	}
	if q.MemPerNode != nil {
		req.MemPerNode = *q.MemPerNode
	}
	if q.MemPerGPU != nil {
		req.MemPerGPU = *q.MemPerGPU
	}
	if st.ArrayJobID != 0 {
		req.ArrayJobID, req.ArrayTaskID = st.ArrayJobID, r.taskID()
		req.ArrayTaskCount, req.ArrayTaskMin, req.ArrayTaskMax, req.ArrayTaskStep = st.ArrayCount, st.ArrayMin, st.ArrayMax, st.ArrayStep
	}
	return req
}

// openMode resolves --open-mode: truncate unless asked (Slurm's default
// JobFileAppend=0), and append after a requeue so earlier output stays.
func (c *Controller) openMode(q *job.Request) job.OpenMode {
	if q.OpenMode != "" {
		return q.OpenMode
	}
	return job.OpenTruncate
}

// controllerAddr is "host:port" of this controller as nodes reach it.
func (c *Controller) controllerAddr() string {
	conf := c.confNow().conf
	host := c.host
	if len(conf.SlurmctldHosts) > 0 {
		host = conf.SlurmctldHosts[0].Addr
	}
	return net.JoinHostPort(host, strconv.Itoa(conf.SlurmctldPort))
}
