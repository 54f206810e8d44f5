// A command lives for milliseconds: the runtime need not start a goroutine
// that watches the CPU limit for changes (it wakes a second thread).

//go:debug updatemaxprocs=0

// Command sacctmgr reads tenants.conf as Slurm's association tree:
// accounts, users, associations, the cluster, QOS and TRES, in Slurm's
// formats. Loam keeps no accounting database, so writes are refused.
package main

import (
	"os"

	"github.com/loamhpc/loam/tools/command"
)

func main() { os.Exit(command.Main(command.Sacctmgr, os.Args[1:])) }
