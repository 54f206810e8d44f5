package agent

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
)

// scontrol listpids: the processes of the jobs this daemon runs, found in
// each job's cgroup, their step read from the cgroup each process is in
// (".../job_J/step_S", else the batch step), and a task's ids from its
// environment when its parent is outside the step (the task itself, not
// one of its descendants). Loam's own helpers (supervisor, step process)
// are left out, as slurmstepd is from Slurm's list. As in Slurm, any
// local user may list them: /proc shows the same to everyone.

// procRoot is where processes are read from.
var procRoot = "/proc"

// maxPidsRequest bounds a listpids request, a job id and a step.
const maxPidsRequest = 1 << 16

// servePids answers api.PathNodedPids on the Unix socket.
func (a *Agent) servePids(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxPidsRequest+1))
	if err != nil {
		writeError(w, api.Errorf(api.CodeBadRequest, "read body: %v", err))
		return
	}
	if len(body) > maxPidsRequest {
		writeError(w, api.Errorf(api.CodeTooLarge, "body over %d bytes", maxPidsRequest))
		return
	}
	var req api.PidsRequest
	if aerr := api.DecodeStrict(body, &req); aerr != nil {
		writeError(w, aerr)
		return
	}
	writeJSON(w, a.pids(&req))
}

// pids lists the processes req asks for.
func (a *Agent) pids(req *api.PidsRequest) *api.PidsResponse {
	out := &api.PidsResponse{Node: a.nc.node.Name, Procs: []api.JobProc{}}
	a.mu.Lock()
	var entries []*jobEntry
	for id, e := range a.jobs {
		if req.JobID == 0 || id == req.JobID {
			entries = append(entries, e)
		}
	}
	a.mu.Unlock()
	slices.SortFunc(entries, func(x, y *jobEntry) int { return int(x.id) - int(y.id) })
	for _, e := range entries {
		out.KnownJob = true
		procs, steps := a.jobProcs(e)
		if req.Step != "" && steps[req.Step] {
			out.KnownStep = true
		}
		for _, p := range procs {
			if req.Step == "" || p.Step == req.Step {
				out.Procs = append(out.Procs, p)
			}
		}
	}
	return out
}

// jobProcs returns job e's processes, batch step first, then the
// numbered steps, each in pid order, and the steps that exist.
func (a *Agent) jobProcs(e *jobEntry) ([]api.JobProc, map[string]bool) {
	steps := map[string]bool{}
	var l spool.Launch
	if err := spool.ReadJSON(filepath.Join(e.dir, spool.LaunchFile), &l); err != nil {
		return nil, steps
	}
	if l.Request.Batch {
		steps["batch"] = true
	}
	dirs, _ := filepath.Glob(filepath.Join(e.dir, "step_*"))
	for _, d := range dirs {
		steps[strings.TrimPrefix(filepath.Base(d), "step_")] = true
	}
	if a.iso == nil {
		return nil, steps
	}
	g, err := a.iso.Load(l.Group)
	if err != nil {
		return nil, steps
	}
	pids, err := g.Pids()
	if err != nil {
		return nil, steps
	}
	return describe(procRoot, e.id, l.Group, pids), steps
}

// describe turns the pids of job jid's cgroup group into listpids rows.
func describe(proc string, jid uint32, group string, pids []int) []api.JobProc {
	stepOf := map[int]string{}
	var rows []api.JobProc
	for _, pid := range pids {
		if helper(proc, pid) {
			continue
		}
		st := stepFromCgroup(proc, pid, group)
		stepOf[pid] = st
		rows = append(rows, api.JobProc{PID: pid, JobID: jid, Step: st, LocalID: -1, GlobalID: -1})
	}
	for i, r := range rows {
		if pst, ok := stepOf[parent(proc, r.PID)]; ok && pst == r.Step {
			continue // a task's descendant
		}
		rows[i].LocalID, rows[i].GlobalID = taskIDs(proc, r.PID)
	}
	slices.SortFunc(rows, func(x, y api.JobProc) int {
		if c := stepOrder(x.Step) - stepOrder(y.Step); c != 0 {
			return c
		}
		return x.PID - y.PID
	})
	return rows
}

// stepOrder puts the batch step first, then steps by number.
func stepOrder(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n + 1
	}
	return 0
}

// helper reports whether pid is one of Loam's own processes.
func helper(proc string, pid int) bool {
	b, _ := os.ReadFile(filepath.Join(proc, strconv.Itoa(pid), "cmdline"))
	args := bytes.Split(b, []byte{0})
	return len(args) > 1 && (string(args[1]) == "__supervise" || string(args[1]) == "__step")
}

// stepFromCgroup reads the step of pid from its cgroup path below group.
func stepFromCgroup(proc string, pid int, group string) string {
	b, _ := os.ReadFile(filepath.Join(proc, strconv.Itoa(pid), "cgroup"))
	for _, line := range strings.Split(string(b), "\n") {
		_, path, ok := strings.Cut(line, "::")
		if !ok {
			if i := strings.LastIndexByte(line, ':'); i >= 0 {
				path = line[i+1:]
			}
		}
		_, rest, found := strings.Cut(path, group+"/step_")
		if !found {
			continue
		}
		rest, _, _ = strings.Cut(rest, "/")
		if _, err := strconv.Atoi(rest); err == nil {
			return rest
		}
	}
	return "batch"
}

// parent returns pid's parent pid, or 0.
func parent(proc string, pid int) int {
	b, _ := os.ReadFile(filepath.Join(proc, strconv.Itoa(pid), "stat"))
	// The command name in parentheses may hold spaces: fields follow the
	// last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// taskIDs reads SLURM_LOCALID and SLURM_PROCID from pid's environment;
// -1 for what is missing.
func taskIDs(proc string, pid int) (local, global int) {
	local, global = -1, -1
	b, _ := os.ReadFile(filepath.Join(proc, strconv.Itoa(pid), "environ"))
	for _, kv := range bytes.Split(b, []byte{0}) {
		k, v, _ := strings.Cut(string(kv), "=")
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
		case k == "SLURM_LOCALID":
			local = n
		case k == "SLURM_PROCID":
			global = n
		}
	}
	return local, global
}
