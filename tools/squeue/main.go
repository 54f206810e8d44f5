// Command squeue lists the jobs in Loam's queue, as Slurm's squeue does.
package main

import (
	"os"

	"github.com/loamhpc/loam/tools/command"
)

func main() { os.Exit(command.Main(command.Squeue, os.Args[1:])) }
