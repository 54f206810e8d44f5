// A command lives for milliseconds: the runtime need not start a goroutine
// that watches the CPU limit for changes (it wakes a second thread).

//go:debug updatemaxprocs=0

// Command strigger sets, lists and clears event triggers: programs the
// controller runs when nodes go down, drain, fail, come back or stay
// idle, or when a job ends or nears its time limit, as Slurm's strigger.
package main

import (
	"os"

	"github.com/loamhpc/loam/tools/command"
)

func main() { os.Exit(command.Main(command.Strigger, os.Args[1:])) }
