package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// fillLayout reports the CPU layout and binding the job asked for
// (-B, --sockets-per-node, --hint, --ntasks-per-core, --gpu-bind,
// --cpu-freq...). Slurm keeps them unchanged from submission to the end,
// running or not, and so does Loam, which does not act on them.
func fillLayout(j *api.Job, q *job.Request) {
	j.SocketsPerNode, j.CoresPerSocket, j.ThreadsPerCore = q.SocketsPerNode, q.CoresPerSocket, q.ThreadsPerCore
	j.NTasksPerCore, j.NTasksPerSocket, j.TRESBind = q.NTasksPerCore, q.NTasksPerSocket, q.TRESBind
	if f := q.CPUFreq; f != nil {
		j.CPUFreqMin, j.CPUFreqMax, j.CPUFreqGov = int64(f.Min), int64(f.Max), int64(f.Gov)
	}
}
