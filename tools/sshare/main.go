// A command lives for milliseconds: the runtime need not start a goroutine
// that watches the CPU limit for changes (it wakes a second thread).

//go:debug updatemaxprocs=0

// Command sshare shows tenants' and users' shares, usage and fair share as
// Slurm's sshare does, with Loam's quota columns.
package main

import (
	"os"

	"github.com/loamhpc/loam/tools/command"
)

func main() { os.Exit(command.Main(command.Sshare, os.Args[1:])) }
