// Command loam-supervise is a job's supervisor (package supervisor), the
// process loam-noded starts for every job: "loam-supervise __supervise
// JOBDIR". It is a separate, small, static binary so that starting one per
// job costs little: the node daemon's binary links cgo (NVML), the
// command-line and metrics packages and more, and re-executing it for each
// job spent milliseconds of CPU in the dynamic loader and package
// initialisation before the supervisor did anything. For the same reason
// it links neither containerd's cgroup packages (the daemon creates the
// job's cgroup; package cgfs works on it through its files), nor net/http
// (the control socket speaks JSON lines), nor logrus. loam-noded falls
// back to its own hidden "__supervise" mode when this binary is not
// installed beside it.
package main

import (
	"os"
	"runtime"

	"github.com/loamhpc/loam/noded/supervisor"
	"github.com/loamhpc/loam/pkg/isolation/cgfs"
)

func main() {
	os.Exit(supervise(os.Args[1:]))
}

// supervise runs "__supervise JOBDIR" as loam-noded's hidden mode does.
func supervise(args []string) int {
	// One job needs no parallelism; one P keeps the runtime from spinning
	// idle threads on a busy node (loam-noded also sets GOMAXPROCS=1 in
	// this process's environment, which costs nothing at start-up).
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
	log := supervisor.NewLogger(os.Stderr)
	if len(args) != 2 || args[0] != supervisor.Arg {
		log.Error("usage: loam-supervise " + supervisor.Arg + " JOBDIR")
		return 2
	}
	groups, err := cgfs.New()
	if err != nil {
		log.WithError(err).Error("cgroups")
		groups = nil
	}
	return supervisor.Main(args[1], groups, log)
}
