// A command lives for milliseconds: the runtime need not start a goroutine
// that watches the CPU limit for changes (it wakes a second thread).

//go:debug updatemaxprocs=0

// Command scontrol shows and changes Loam's jobs, nodes and partitions, as
// Slurm's scontrol does.
package main

import (
	"os"

	"github.com/loamhpc/loam/tools/command"
)

func main() { os.Exit(command.Main(command.Scontrol, os.Args[1:])) }
