package jobopt

import (
	"fmt"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

func setAccount(b *builder, v value) error   { b.req.Account = v.str; return nil }
func setArray(b *builder, v value) error     { b.req.Array = v.str; return nil }
func setComment(b *builder, v value) error   { b.req.Comment = v.str; return nil }
func setWCKey(b *builder, v value) error     { b.req.WCKey = v.str; return nil }
func setContainer(b *builder, v value) error { b.req.Container = v.str; return nil }
func setMCSLabel(b *builder, v value) error  { b.req.MCSLabel = v.str; return nil }

// setGPUFreq records --gpu-freq as slurmctld's TresFreq ("gpu:high");
// check_values.go checked it. Loam does not change GPU clocks.
func setGPUFreq(b *builder, v value) error {
	b.req.TresFreq = ""
	if v.str != "" {
		b.req.TresFreq = "gpu:" + v.str
	}
	return nil
}
func setDependency(b *builder, v value) error  { b.req.Dependency = v.str; return nil }
func setExclude(b *builder, v value) error     { b.req.Exclude = v.str; return nil }
func setJobName(b *builder, v value) error     { b.req.Name = v.str; return nil }
func setMailUser(b *builder, v value) error    { b.req.MailUser = v.str; return nil }
func setQOS(b *builder, v value) error         { b.req.QOS = v.str; return nil }
func setReservation(b *builder, v value) error { b.req.Reservation = v.str; return nil }
func setHold(b *builder, v value) error        { b.req.Hold = !v.reset; return nil }
func setLicenses(b *builder, v value) error    { b.req.Licenses = v.str; return nil }

func setConstraint(b *builder, v value) error {
	b.req.Constraint = job.NormalizeConstraint(v.str) // Slurm stores gpu,ib as gpu&ib
	b.req.Features = job.SimpleFeatures(v.str)
	return nil
}

// setBatch keeps --batch as given, even empty: its checks against -C are
// the controller's, as in Slurm (the peer refuses --batch= alone but takes
// --batch= -C gpu).
func setBatch(b *builder, v value) error {
	s := v.str
	b.req.BatchFeatures = &s
	return nil
}

func setPartition(b *builder, v value) error {
	b.req.Partitions = nil
	for _, p := range strings.Split(v.str, ",") {
		if p != "" {
			b.req.Partitions = append(b.req.Partitions, p)
		}
	}
	return nil
}

// setData takes Loam's --data=PATH[,PATH...]; a later occurrence replaces
// an earlier one, as for every other option.
func setData(b *builder, v value) error {
	b.req.DataPaths = nil
	for _, p := range strings.Split(v.str, ",") {
		if p != "" {
			b.req.DataPaths = append(b.req.DataPaths, p)
		}
	}
	return nil
}

// setChdir makes a relative directory absolute against the submitter's
// working directory, as sbatch does.
func setChdir(b *builder, v value) error {
	b.req.WorkDir = b.p.absolute(v.str)
	return nil
}

// fileName maps "none" (any case) to /dev/null, as sbatch does for -o, -e
// and -i.
func fileName(s string) string {
	if strings.EqualFold(s, "none") {
		return "/dev/null"
	}
	return s
}

func setOutput(b *builder, v value) error { b.req.StdOut = fileName(v.str); return nil }
func setError(b *builder, v value) error  { b.req.StdErr = fileName(v.str); return nil }
func setInput(b *builder, v value) error  { b.req.StdIn = fileName(v.str); return nil }

func setBegin(b *builder, v value) error {
	t, err := slurmtime.ParseTime(v.str, b.now())
	if err != nil {
		return b.timeError("begin", v.str)
	}
	b.req.Begin = &t
	return nil
}

func setDeadline(b *builder, v value) error {
	t, err := slurmtime.ParseTime(v.str, b.now())
	if err != nil {
		return b.timeError("deadline", v.str)
	}
	b.req.Deadline = &t
	return nil
}

func setTime(b *builder, v value) error {
	d, err := timeLimit(v.str)
	if err != nil {
		return b.clientError("Invalid --time specification")
	}
	b.req.TimeLimit = &d
	return nil
}

func setTimeMin(b *builder, v value) error {
	d, err := timeLimit(v.str)
	if err != nil {
		return b.clientError("Invalid --time-min specification")
	}
	b.req.TimeMin = &d
	return nil
}

// timeLimit reads a limit as sbatch does: rounded up to whole minutes, 0
// and -1 meaning UNLIMITED.
func timeLimit(s string) (time.Duration, error) { return slurmtime.ParseTimeLimit(s) }

func setNice(b *builder, v value) error {
	n := int64(100) // --nice without a value
	if v.has {
		n, _ = cStrtol(v.str) // like strtoll, text reads as 0
	}
	if n > job.MaxNice || n < -job.MaxNice {
		return b.clientError("Invalid --nice value, out of range (+/- %d)", job.MaxNice)
	}
	i := int(n)
	b.req.Nice = &i
	return nil
}

func setRequeue(b *builder, v value) error   { return b.setRequeueFlag(v, true) }
func setNoRequeue(b *builder, v value) error { return b.setRequeueFlag(v, false) }

func (b *builder) setRequeueFlag(v value, on bool) error {
	if v.reset {
		b.req.Requeue = nil
		return nil
	}
	b.req.Requeue = &on
	return nil
}

func setKillOnInvalidDep(b *builder, v value) error {
	var on bool
	switch {
	case strings.EqualFold(v.str, "yes"):
		on = true
	case strings.EqualFold(v.str, "no"):
	default:
		return b.clientError("Invalid --kill-on-invalid-dep specification")
	}
	b.req.KillOnInvalidDep = &on
	return nil
}

// setMailType adds to the events already asked for, as sbatch does: a
// later --mail-type never removes earlier ones.
func setMailType(b *builder, v value) error {
	m, err := job.ParseMailType(v.str)
	if err != nil {
		return b.clientError("Invalid --mail-type specification")
	}
	b.req.MailType |= m
	return nil
}

func setOpenMode(b *builder, v value) error {
	switch {
	case strings.HasPrefix(v.str, "a") || strings.HasPrefix(v.str, "A"):
		b.req.OpenMode = job.OpenAppend
	case strings.HasPrefix(v.str, "t") || strings.HasPrefix(v.str, "T"):
		b.req.OpenMode = job.OpenTruncate
	default:
		return b.clientError("Invalid --open-mode specification")
	}
	return nil
}

func setSignal(b *builder, v value) error {
	sg, err := job.ParseSignal(v.str)
	if err != nil {
		return b.clientError("Invalid --signal specification")
	}
	b.req.Signal = &sg
	return nil
}

func setExclusive(b *builder, v value) error {
	switch {
	case v.reset:
		b.req.Exclusive = ""
	case !v.has || strings.EqualFold(v.str, "exclusive"):
		b.req.Exclusive = job.ExclusiveNodes
	case strings.EqualFold(v.str, "oversubscribe"):
		b.req.Exclusive = job.Oversubscribe
	case strings.EqualFold(v.str, "user"):
		b.req.Exclusive = job.ExclusiveUser
	case strings.EqualFold(v.str, "mcs"):
		b.req.Exclusive = job.ExclusiveMCS
	default:
		return b.clientError("Invalid --exclusive specification")
	}
	return nil
}

func setOversubscribe(b *builder, v value) error {
	if v.reset {
		b.req.Exclusive = ""
		return nil
	}
	b.req.Exclusive = job.Oversubscribe
	return nil
}

func setExport(b *builder, v value) error {
	e := job.ParseExport(v.str)
	b.req.Export = &e
	b.exportSpec = v.str
	return nil
}

// setUID takes --uid for root only; the controller resolves the name.
func setUID(b *builder, v value) error {
	if !b.p.Root {
		return b.clientError("--uid only permitted by root user")
	}
	if v.str == "" {
		return b.clientError("Invalid --uid specification")
	}
	b.req.RunAsUser = v.str
	return nil
}

// setGID refuses --gid from anyone but root, as sbatch does, before it
// looks at the value; Loam then ignores it (jobs run with the user's own
// groups). Whether the group exists is not checked: the parser does no I/O.
func setGID(b *builder, v value) error {
	if !b.p.Root {
		return b.clientError("--gid only permitted by root user")
	}
	if v.str == "" {
		return b.clientError("Invalid --gid specification")
	}
	b.ignored(v)
	return nil
}

func setNodeList(b *builder, v value) error {
	if strings.Contains(v.str, "/") {
		// A name with "/" is a host file, read as --nodefile reads
		// one (Slurm's _valid_node_list); it stays in its order.
		names, err := readHostFile(v.str, b.p.Cwd)
		if err != nil {
			return b.exitError(err.Error())
		}
		b.req.NodeList = strings.Join(names, ",")
		return nil
	}
	b.req.NodeList = v.str
	return nil
}

// memory options: the value is megabytes; where it was set decides which
// of the three wins (see verifyMemory).
func setMem(b *builder, v value) error       { return b.setMemory(v, "mem", &b.req.MemPerNode) }
func setMemPerCPU(b *builder, v value) error { return b.setMemory(v, "mem-per-cpu", &b.req.MemPerCPU) }
func setMemPerGPU(b *builder, v value) error { return b.setMemory(v, "mem-per-gpu", &b.req.MemPerGPU) }

func (b *builder) setMemory(v value, name string, field **int64) error {
	mb, err := resource.ParseMemory(v.str)
	if err != nil || mb < 0 {
		return b.clientError("Invalid --%s specification", name)
	}
	*field = &mb
	b.memSrc[name] = v.src
	return nil
}

// GPU options take "[type:]count" lists, as Slurm prefixes them with
// "gpu:"; a bad one fails as sbatch's GRES check does, with status 1.
func setGPUs(b *builder, v value) error { return b.setGPUList(v, "SLURM_GPUS", &b.req.GPUs) }
func setGPUsPerNode(b *builder, v value) error {
	return b.setGPUList(v, "SLURM_GPUS_PER_NODE", &b.req.GPUsPerNode)
}
func setGPUsPerTask(b *builder, v value) error {
	return b.setGPUList(v, "SLURM_GPUS_PER_TASK", &b.req.GPUsPerTask)
}

func (b *builder) setGPUList(v value, envName string, field *[]resource.GRES) error {
	b.gpuSpecs[envName] = v.str
	list, err := resource.ParseGPUs(v.str)
	if err != nil {
		return b.exitError(job.MsgInvalidGRES)
	}
	*field = list
	return nil
}

// setGRES takes --gres lists; "gres:" prefixes are dropped and "none"
// clears the request.
func setGRES(b *builder, v value) error {
	if strings.EqualFold(v.str, "none") {
		b.req.GRES, b.gresNone = nil, true
		return nil
	}
	parts := strings.Split(v.str, ",")
	for i, p := range parts {
		parts[i] = strings.TrimPrefix(p, "gres:")
	}
	list, err := resource.ParseGRES(strings.Join(parts, ","))
	if err != nil {
		return b.exitError(job.MsgInvalidGRES)
	}
	b.req.GRES, b.gresNone = list, false
	return nil
}

func setCPUsPerGPU(b *builder, v value) error {
	n, err := b.parseInt("--cpus-per-gpu", v.str, true)
	b.req.CPUsPerGPU = n
	return err
}

func setCPUsPerTask(b *builder, v value) error {
	n, err := b.parseInt("--cpus-per-task", v.str, true)
	b.req.CPUsPerTask = n
	return err
}

func setMinCPUs(b *builder, v value) error {
	n, err := b.parseInt("--mincpus", v.str, true)
	b.req.MinCPUs = n
	return err
}

func setNTasksPerGPU(b *builder, v value) error { return b.setTasksPerGPU("--ntasks-per-gpu", v) }

// setNTasksPerTRES is --ntasks-per-tres, which sbatch sends as
// --ntasks-per-gpu (the peer's --ntasks-per-tres=2 --gpus=2 is 4 tasks).
func setNTasksPerTRES(b *builder, v value) error { return b.setTasksPerGPU("--ntasks-per-tres", v) }

// setTasksPerGPU reads the tasks per GPU given as option flag.
func (b *builder) setTasksPerGPU(flag string, v value) error {
	n, err := b.parseInt(flag, v.str, true)
	b.tasksPerGPU, b.req.NTasksPerGPU = n, n
	return err
}

// setFlag returns the setter of a flag of the request: set by the option,
// cleared when an environment variable turned it off.
func setFlag(field func(r *job.Request) *bool) func(b *builder, v value) error {
	return func(b *builder, v value) error {
		*field(&b.req) = !v.reset
		return nil
	}
}

var (
	// setOvercommit is -O: tasks share CPUs, so the job holds one task's
	// CPUs a node (the peer: -O -n2 runs on 1 CPU).
	setOvercommit = setFlag(func(r *job.Request) *bool { return &r.Overcommit })
	// setSpreadJob is --spread-job: as many nodes as tasks (the
	// controller caps them at the partition's nodes).
	setSpreadJob = setFlag(func(r *job.Request) *bool { return &r.SpreadJob })
	// setContiguous is --contiguous: the job's nodes are consecutive in
	// slurm.conf's node order.
	setContiguous = setFlag(func(r *job.Request) *bool { return &r.Contiguous })
	// setUseMinNodes is --use-min-nodes: a -N min-max job starts on its
	// least node count even when more nodes are free.
	setUseMinNodes = setFlag(func(r *job.Request) *bool { return &r.UseMinNodes })
)

func setNTasks(b *builder, v value) error {
	n, err := b.parseInt("--ntasks", v.str, true)
	b.req.NTasks = n
	return err
}

func setNTasksPerNode(b *builder, v value) error {
	n, err := b.parseInt("--ntasks-per-node", v.str, true)
	b.req.NTasksPerNode = n
	return err
}

// timeError is sbatch's refusal of a --begin or --deadline value, after
// the line Slurm's time parser prints where it gives up
// ("Invalid time specification (pos=3): now+garbage").
func (b *builder) timeError(opt, val string) error {
	err := b.clientError("Invalid --%s specification", opt).(*Error)
	if pos, ok := slurmtime.DiagnosticPos(val); ok {
		err.Lines = append([]string{fmt.Sprintf("Invalid time specification (pos=%d): %s", pos, val)}, err.Lines...)
	}
	return err
}

// setPrefer keeps --prefer as Slurm stores it: commas made '&' (the peer
// shows --prefer=gpu,cpu as Prefer=gpu&cpu). Its checks are the
// controller's, as in Slurm.
func setPrefer(b *builder, v value) error {
	b.req.Prefer = job.NormalizeConstraint(v.str)
	return nil
}
