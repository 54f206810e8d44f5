// Command sinfo shows Loam's partitions and nodes, as Slurm's sinfo does.
package main

import (
	"os"

	"github.com/loamhpc/loam/tools/command"
)

func main() { os.Exit(command.Main(command.Sinfo, os.Args[1:])) }
