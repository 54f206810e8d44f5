package command

import (
	"context"
	"os"
	"runtime/debug"

	"github.com/loamhpc/loam/pkg/client"
)

// DialController finds the controller as every command does (LOAM_CONF,
// SLURM_CONF, /etc/loam/slurm.conf) and returns a client for it.
func DialController(context.Context) (Controller, error) {
	c, err := client.Discover()
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Main runs a command in this process and returns its exit status; the
// thin mains call it.
func Main(run func(ctx context.Context, env *Env, args []string) int, args []string) int {
	// The commands live for milliseconds and build one listing: collect
	// garbage only if the heap grows past a bound (100,000 jobs stay
	// well under it), which saves a third of squeue's time.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(768 << 20)
	env := OSEnv(DialController)
	env.Argv0 = os.Args[0]
	return run(context.Background(), env, args)
}
