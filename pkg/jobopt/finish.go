package jobopt

import (
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/rlimit"
)

// finish fills in the script, its arguments and the job's environment.
func (b *builder) finish(cl *CommandLine, body string) {
	r := &b.req
	r.Script = addToScript(body, b.bbf) // --bbf, recorded.go
	if cl.Script != "" {
		r.Argv = append([]string{cl.Script}, cl.ScriptArgs...)
	}
	r.Environment = b.environment()
}

// environment builds the job's environment as sbatch does: it first sets
// SLURM_* variables in its own environment, then copies what --export
// selects (plus every SLURM_* variable), then adds the variables describing
// the request.
//
// With --export-file sbatch clears its own environment once it has read
// its options, so the file's variables take the place of the submitter's
// and of what sbatch set while reading the options (SLURM_JOB_NAME,
// SLURM_EXPORT_ENV, the limits...); only what it sets afterwards is kept:
// SLURM_PRIO_PROCESS, SLURM_UMASK and the submit directory (unless the
// file sets it) and host. --export=NONE drops the file's variables too.
func (b *builder) environment() []string {
	r := &b.req
	var own envList
	if b.exportFile == nil {
		b.ownVariables(&own)
	} else {
		for _, kv := range b.p.Env {
			if strings.HasPrefix(kv, "SLURM_PRIO_PROCESS=") || strings.HasPrefix(kv, "SLURM_UMASK=") {
				own.merge(kv)
			}
		}
	}
	b.umaskVariable(&own) // xlate.go
	if _, asked := b.passed["get-user-env"]; asked || (r.Export != nil && !strings.EqualFold(b.exportSpec, "ALL")) {
		// As sbatch does for --get-user-env, NONE or a list: the node
		// loads the user's login environment under the job's own
		// variables.
		own.set("SLURM_GET_USER_ENV", "1")
	}
	if !slices.ContainsFunc(b.exportFile, func(kv string) bool { return strings.HasPrefix(kv, "SLURM_SUBMIT_DIR=") }) {
		own.set("SLURM_SUBMIT_DIR", b.p.Cwd)
	}
	if b.p.Host != "" {
		own.set("SLURM_SUBMIT_HOST", b.p.Host)
	}
	export := job.Export{All: true}
	if r.Export != nil {
		export = *r.Export
	}
	var out envList
	if export.All || len(export.Vars) > 0 {
		out.merge(b.exportFile...) // names unique already (exportFileEntries)
	}
	out.merge(export.Environment(own.list)...)
	b.requestVariables(&out)
	return out.list
}

// ownVariables is sbatch's own environment as it reads its options: the
// submitter's, with the variables the options set.
func (b *builder) ownVariables(own *envList) {
	r := &b.req
	own.merge(b.p.Env...)
	own.merge(rlimit.Env(b.propagate, b.p.RLimits)...) // as sbatch sets them in its own environment
	if !b.unnamed {
		own.set("SLURM_JOB_NAME", r.Name)
	}
	switch r.OpenMode {
	case job.OpenAppend:
		own.set("SLURM_OPEN_MODE", "a")
	case job.OpenTruncate:
		own.set("SLURM_OPEN_MODE", "t")
	}
	if r.Dependency != "" {
		own.set("SLURM_JOB_DEPENDENCY", r.Dependency)
	}
	if r.Export != nil && !strings.EqualFold(b.exportSpec, "ALL") {
		own.setDefault("SLURM_EXPORT_ENV", b.exportSpec)
	}
}

// requestVariables adds what sbatch's set_env_from_opts and set_envs add.
func (b *builder) requestVariables(env *envList) {
	r := &b.req
	if r.CPUsPerGPU > 0 {
		env.set("SLURM_CPUS_PER_GPU", strconv.Itoa(r.CPUsPerGPU))
	}
	for _, name := range []string{"SLURM_GPUS", "SLURM_GPUS_PER_NODE", "SLURM_GPUS_PER_TASK"} {
		if s, ok := b.gpuSpecs[name]; ok {
			env.set(name, s)
		}
	}
	if r.MemPerGPU != nil {
		env.set("SLURM_MEM_PER_GPU", strconv.FormatInt(*r.MemPerGPU, 10))
	}
	if r.CPUsPerTask > 0 {
		env.set("SLURM_CPUS_PER_TASK", strconv.Itoa(r.CPUsPerTask))
	}
	if r.NTasks > 0 {
		env.set("SLURM_NPROCS", strconv.Itoa(r.NTasks))
		env.set("SLURM_NTASKS", strconv.Itoa(r.NTasks))
	}
	if r.NTasksPerNode > 0 {
		env.set("SLURM_NTASKS_PER_NODE", strconv.Itoa(r.NTasksPerNode))
	}
	b.passedVariables(env)
}

// gpuTasksPerNode sets the tasks a node that GPUs a node over GPUs a task
// make, as the client's GRES check sets them after sbatch's own checks
// (so SLURM_NTASKS_PER_NODE stays unset): the peer runs -n4
// --gpus-per-task=1 --gres=gpu:2 on 2 nodes and shows -n3
// --gpus-per-task=2 --gpus-per-node=4 with NtasksPerN:B:S:C=2:0:*:*.
func (b *builder) gpuTasksPerNode() {
	r := &b.req
	perNode, perTask := r.NodeGPUs(), resource.GPUCount(r.GPUsPerTask)
	if r.NTasksPerNode == 0 && perNode > 0 && perTask > 0 && perNode%perTask == 0 {
		r.NTasksPerNode = perNode / perTask
	}
}

// validate runs the request checks sbatch itself makes before sending.
func (b *builder) validate() error {
	if b.gresNone {
		b.req.GRES = nil
	}
	err := b.req.ValidateClient()
	inv, ok := err.(*job.InvalidError)
	switch {
	case err == nil:
		b.gpuTasksPerNode()
		return nil
	case !ok:
		return b.exitError(err.Error())
	case inv.Detail != "":
		return b.exitError(inv.Detail, inv.Msg)
	}
	return b.exitError(inv.Msg)
}

// envList is an environment that keeps its order; setting a variable that
// exists replaces it in place.
type envList struct {
	list []string
	at   map[string]int
}

func (l *envList) merge(kvs ...string) {
	for _, kv := range kvs {
		name, _, _ := strings.Cut(kv, "=")
		l.put(name, kv, true)
	}
}

func (l *envList) set(name, val string)        { l.put(name, name+"="+val, true) }
func (l *envList) setDefault(name, val string) { l.put(name, name+"="+val, false) }

func (l *envList) put(name, kv string, overwrite bool) {
	if l.at == nil {
		l.at = map[string]int{}
	}
	if i, ok := l.at[name]; ok {
		if overwrite {
			l.list[i] = kv
		}
		return
	}
	l.at[name] = len(l.list)
	l.list = append(l.list, kv)
}
