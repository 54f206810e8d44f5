// A command lives for milliseconds: the runtime need not start a goroutine
// that watches the CPU limit for changes (it wakes a second thread).

//go:debug updatemaxprocs=0

// Command salloc obtains an interactive job allocation on Loam and runs a
// command in it, as Slurm's salloc does.
package main

import (
	"os"

	"github.com/loamhpc/loam/tools/command"
)

func main() { os.Exit(command.Main(command.Salloc, os.Args[1:])) }
