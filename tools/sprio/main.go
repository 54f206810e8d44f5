// A command lives for milliseconds: the runtime need not start a goroutine
// that watches the CPU limit for changes (it wakes a second thread).

//go:debug updatemaxprocs=0

// Command sprio shows the priority factors of pending jobs, and their
// recorded changes (--history), as Slurm's sprio does.
package main

import (
	"os"

	"github.com/loamhpc/loam/tools/command"
)

func main() { os.Exit(command.Main(command.Sprio, os.Args[1:])) }
