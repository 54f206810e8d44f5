package sim

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/sched"
)

// Job is one trace row made ready to replay on a configuration.
type Job struct {
	Rec  Record
	Spec cluster.JobSpec // ID is the row's rank in submit order, from 1
	// Run is the work the job does once started (the row's run_s).
	Run time.Duration
	// NeverRan marks rows that never started in the recorded system
	// (state PENDING or CANCELLED with run_s 0): the user cancels them at
	// CancelAt (submit + recorded wait) whatever they are doing then.
	NeverRan bool
	CancelAt time.Duration
}

// Prepare turns trace rows into jobs for cfg. defPart is the partition of
// rows with a blank queue (slurm.conf's Default=YES partition); empty means
// the first partition. A row's queue is a queue class (urgent, normal,
// batch: the first partition of that class) or a partition name. Unknown
// queues and tenants are errors naming the row's line.
//
// Shapes: gpus/nodes/gpus_per_node as given (blank nodes lets the scheduler
// choose; a multi-node row without gpus_per_node spreads its GPUs evenly
// when they divide); CPUs are rounded up, at least 1, and spread evenly over
// a fixed node count; no memory is requested (the traces have none).
//
// Limits: limit_s when given, else DeriveLimit. A derived limit above the
// partition's MaxTime is cut to MaxTime when the run still fits, as a user
// would after sbatch refused the larger value.
func Prepare(recs []Record, cfg sched.Config, defPart string) ([]Job, error) {
	if len(cfg.Partitions) == 0 {
		return nil, errors.New("prepare trace: configuration has no partitions")
	}
	if defPart == "" {
		defPart = cfg.Partitions[0].Name
	}
	tenants := make(map[string]bool, len(cfg.Tenants))
	for _, t := range cfg.Tenants {
		tenants[t.Name] = true
	}
	jobs := make([]Job, 0, len(recs))
	var errs []error
	for i, r := range recs {
		j, err := prepareOne(r, cfg, defPart, tenants)
		if err != nil {
			errs = append(errs, fmt.Errorf("trace line %d (job %s): %w", r.Line, r.JobID, err))
			if len(errs) == 20 {
				break
			}
			continue
		}
		j.Spec.ID = sched.JobID(i + 1)
		jobs = append(jobs, j)
	}
	return jobs, errors.Join(errs...)
}

func prepareOne(r Record, cfg sched.Config, defPart string, tenants map[string]bool) (Job, error) {
	part, err := partitionFor(r.Queue, cfg, defPart)
	if err != nil {
		return Job{}, err
	}
	// Slurm stores account names in lower case; tenants.conf does too.
	tenant, user := strings.ToLower(r.Tenant), r.User
	if len(tenants) > 0 && !tenants[tenant] {
		return Job{}, fmt.Errorf("tenant %q is not in tenants.conf", tenant)
	}
	if user == "" {
		user = tenant
	}
	limit := r.Limit
	if limit == 0 {
		limit = DeriveLimit(r.JobID, r.Run)
		if mt := part.MaxTime; mt > 0 && limit > mt && r.Run <= mt {
			limit = mt
		}
	}
	j := Job{Rec: r, Run: r.Run, Spec: cluster.JobSpec{
		Partitions: []string{part.Name}, Tenant: tenant, User: user,
		Shape: shapeOf(r), Limit: limit, Requeue: true,
	}}
	if r.Run == 0 && (r.State == "PENDING" || r.State == "CANCELLED") {
		j.NeverRan, j.CancelAt = true, r.Submit+r.Wait
	}
	return j, nil
}

func partitionFor(queue string, cfg sched.Config, defPart string) (*sched.Partition, error) {
	if queue == "" {
		queue = defPart
	}
	classes := map[string]sched.QueueClass{"urgent": sched.ClassUrgent, "normal": sched.ClassNormal, "batch": sched.ClassBatch}
	for i := range cfg.Partitions {
		if cfg.Partitions[i].Name == queue {
			return &cfg.Partitions[i], nil
		}
	}
	if class, ok := classes[queue]; ok {
		for i := range cfg.Partitions {
			if cfg.Partitions[i].Class == class {
				return &cfg.Partitions[i], nil
			}
		}
		return nil, fmt.Errorf("no partition of queue class %q", queue)
	}
	names := make([]string, len(cfg.Partitions))
	for i, p := range cfg.Partitions {
		names[i] = p.Name
	}
	return nil, fmt.Errorf("queue %q is neither a queue class nor a partition (%v)", queue, names)
}

func shapeOf(r Record) sched.Shape {
	cpus := max(int(math.Ceil(r.CPUs-1e-9)), 1)
	s := sched.Shape{Nodes: r.Nodes, GPUs: r.GPUs, CPUs: cpus}
	gpn := r.GPUsPerNode
	if gpn == 0 && r.Nodes > 1 && r.GPUs%r.Nodes == 0 {
		gpn = r.GPUs / r.Nodes
	}
	if gpn > 0 && r.Nodes > 0 {
		s.GPUs, s.GPUsPerNode = 0, gpn
	}
	if r.Nodes > 1 {
		s.CPUs, s.CPUsPerNode = 0, (cpus+r.Nodes-1)/r.Nodes
	}
	return s
}

// gpusOf is the GPU count of a shape.
func gpusOf(s sched.Shape) int {
	if s.GPUsPerNode > 0 {
		return s.GPUsPerNode * max(s.Nodes, 1)
	}
	return s.GPUs
}

// sortedTenants returns the tenant names of cfg and the jobs, configured
// ones first in configuration order, then the rest sorted.
func sortedTenants(cfg sched.Config, jobs []Job) []string {
	var out []string
	for _, t := range cfg.Tenants {
		out = append(out, t.Name)
	}
	var extra []string
	for _, j := range jobs {
		if !slices.Contains(out, j.Spec.Tenant) && !slices.Contains(extra, j.Spec.Tenant) {
			extra = append(extra, j.Spec.Tenant)
		}
	}
	slices.Sort(extra)
	return append(out, extra...)
}
