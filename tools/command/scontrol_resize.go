package command

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// resizeFiles is what Slurm's scontrol does after NumNodes= or NodeList=
// changed one job from inside a job's environment (SLURM_JOBID set): it
// writes slurm_job_ID_resize.sh and .csh in the current directory, which
// set the SLURM_* variables the environment has to the job's new
// allocation, and says how to use them. Outside a job it does nothing.
func (s *scontrol) resizeFiles(id string) {
	if _, ok := s.env.Getenv("SLURM_JOBID"); !ok {
		return
	}
	n, err := strconv.ParseUint(id, 10, 32)
	if err != nil {
		return
	}
	look, ok := s.c.(interface {
		WaitAllocation(context.Context, *api.AllocationWaitRequest) (*api.Allocation, error)
	})
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	al, err := look.WaitAllocation(ctx, &api.AllocationWaitRequest{JobID: uint32(n)})
	switch {
	case err != nil:
		s.w.raw("slurm_allocation_lookup: " + errText(err) + "\n")
		return
	case al.Ended:
		al = &api.Allocation{JobID: al.JobID} // sized to nothing, not an error
	case !al.Ready:
		s.w.raw("slurm_allocation_lookup: " + api.NewError(api.CodeJobPending).Message + "\n")
		return
	}
	sh, csh := resizeScripts(s.env, al)
	base := "slurm_job_" + id + "_resize"
	for _, f := range []struct{ name, text string }{{base + ".csh", csh}, {base + ".sh", sh}} {
		path := filepath.Join(s.env.Cwd, f.name)
		_ = os.Remove(path)
		if err := os.WriteFile(path, []byte(f.text), 0o700); err != nil {
			s.w.raw("Could not create file " + f.name + ": " + errText(err) + "\n")
			return
		}
	}
	s.w.printf("To reset Slurm environment variables, execute\n")
	s.w.printf("  For bash or sh shells:  . ./%s.sh\n", base)
	s.w.printf("  For csh shells:         source ./%s.csh\n", base)
}

// resizeScripts are the two files' contents: each variable the
// environment has is set to the new allocation, and the task counts,
// which cannot be recomputed, are unset.
func resizeScripts(env *Env, al *api.Allocation) (sh, csh string) {
	var b, c strings.Builder
	set := func(name, value string, quoted bool) {
		if _, ok := env.Getenv(name); !ok {
			return
		}
		if quoted {
			value = `"` + value + `"`
		}
		b.WriteString("export " + name + "=" + value + "\n")
		c.WriteString("setenv " + name + " " + value + "\n")
	}
	count := strconv.Itoa(len(al.Nodes))
	set("SLURM_NODELIST", al.NodeList, true)
	set("SLURM_JOB_NODELIST", al.NodeList, true)
	set("SLURM_NNODES", count, false)
	set("SLURM_JOB_NUM_NODES", count, false)
	set("SLURM_JOB_CPUS_PER_NODE", cpusPerNode(al), true) // step_alloc.go
	if _, ok := env.Getenv("SLURM_TASKS_PER_NODE"); ok {
		for _, v := range []string{"SLURM_NPROCS", "SLURM_NTASKS", "SLURM_TASKS_PER_NODE"} {
			b.WriteString("unset " + v + "\n")
			c.WriteString("unsetenv " + v + "\n")
		}
	}
	return b.String(), c.String()
}
