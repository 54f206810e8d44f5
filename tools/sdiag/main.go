// A command lives for milliseconds: the runtime need not start a goroutine
// that watches the CPU limit for changes (it wakes a second thread).

//go:debug updatemaxprocs=0

// Command sdiag shows the controller's statistics (scheduling cycles,
// jobs, API requests by path and user), or resets them (-r), as Slurm's
// sdiag does.
package main

import (
	"os"

	"github.com/loamhpc/loam/tools/command"
)

func main() { os.Exit(command.Main(command.Sdiag, os.Args[1:])) }
