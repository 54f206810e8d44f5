package jobopt

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/resource"
)

// distKind is how -m/--distribution lays out tasks, as far as Loam reads it.
type distKind int

const (
	distOther     distKind = iota // block, cyclic, plane=N, * and their levels
	distArbitrary                 // the tasks follow the -w list
)

// parseDistribution checks an -m value as Slurm 22.05's sbatch, srun and
// salloc accept it (checked against the peer): plane=N with N a positive
// integer and nothing after it; or up to three ':'-separated levels
// (empty ones skipped), the first block, cyclic, arbitrary (alone) or *,
// the others block, cyclic, fcyclic or *, case-insensitive; optionally
// followed by ",Pack" or ",NoPack".
func (b *builder) parseDistribution(s string) (distKind, error) {
	if len(s) >= 5 && strings.EqualFold(s[:5], "plane") {
		size, ok := strings.CutPrefix(s[5:], "=")
		if n, err := strconv.Atoi(size); !ok || err != nil || n <= 0 || strings.Trim(size, "0123456789") != "" {
			return distOther, &Error{Code: ExitClient, Lines: []string{
				b.errLine("Invalid plane size or size not specified"), b.errLine("Invalid --distribution specification")}}
		}
		return distOther, nil
	}
	bad := b.clientError("Invalid --distribution specification")
	levels, pack, hasPack := strings.Cut(s, ",")
	if hasPack && pack != "" && !strings.EqualFold(pack, "pack") && !strings.EqualFold(pack, "nopack") {
		return distOther, bad
	}
	var names []string
	for _, l := range strings.Split(levels, ":") {
		if l != "" {
			names = append(names, strings.ToLower(l))
		}
	}
	if len(names) == 0 || len(names) > 3 {
		return distOther, bad
	}
	if names[0] == "arbitrary" {
		if len(names) > 1 {
			return distOther, bad
		}
		return distArbitrary, nil
	}
	for i, n := range names {
		switch {
		case n == "block", n == "cyclic", n == "*":
		case n == "fcyclic" && i > 0:
		default:
			return distOther, bad
		}
	}
	return distOther, nil
}

// setDistribution is sbatch's and salloc's -m: checked and kept. The
// job's tasks are laid out as cons_tres does by default; the srun in the
// job reads SLURM_DISTRIBUTION, and the controller picks the CPU ids by
// the second level (block or plane: lowest ids first).
func setDistribution(b *builder, v value) error {
	kind, err := b.parseDistribution(v.str)
	if err != nil {
		return err
	}
	b.arbitrary = kind == distArbitrary
	b.req.Distribution = v.str
	return nil
}

// setTmp is --tmp: a size as --mem takes it (megabytes by default), the
// least TmpDisk each node of the job must have.
func setTmp(b *builder, v value) error {
	mb, err := resource.ParseMemory(v.str)
	if err != nil || mb < 0 {
		return b.clientError("Invalid --tmp specification")
	}
	b.req.TmpDisk = mb
	return nil
}

// verifyDistribution applies the checks Slurm makes once every option
// is read: -m arbitrary needs -w.
func (b *builder) verifyDistribution() error {
	if b.arbitrary && b.req.NodeList == "" {
		return b.exitError("With Arbitrary distribution you need to specify a nodelist or hostfile with the -w option")
	}
	return nil
}

// verifyCPUsPerGPU is the check of Slurm's job GRES validation that
// --cpus-per-gpu excludes --cpus-per-task (either from the environment
// too). sbatch, salloc and an srun that allocates make it; a step in a
// job does not (the peer runs srun -c1 --cpus-per-gpu=1 in a job).
func (b *builder) verifyCPUsPerGPU() error {
	// Slurm checks this in its GRES validation, after the tasks
	// --ntasks-per-gpu counts from: without them that refusal comes first
	// (the peer's sbatch -c3 --cpus-per-gpu=2 --ntasks-per-gpu=2).
	if b.req.CPUsPerGPU > 0 && b.req.CPUsPerTask > 0 && !b.tasksPerGPUUncounted() { // srun_gpu_tasks.go
		return b.exitError("--cpus-per-gpu is mutually exclusive with --cpus-per-task", "Invalid generic resource (gres) specification")
	}
	return nil
}
