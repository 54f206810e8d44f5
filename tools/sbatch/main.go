// A command lives for milliseconds: the runtime need not start a goroutine
// that watches the CPU limit for changes (it wakes a second thread).

//go:debug updatemaxprocs=0

// Command sbatch submits a batch script to Loam, as Slurm's sbatch does.
package main

import (
	"os"

	"github.com/loamhpc/loam/tools/command"
)

func main() { os.Exit(command.Main(command.Sbatch, os.Args[1:])) }
