// Command scontrol shows and changes Loam's jobs, nodes and partitions, as
// Slurm's scontrol does.
package main

import (
	"os"

	"github.com/loamhpc/loam/tools/command"
)

func main() { os.Exit(command.Main(command.Scontrol, os.Args[1:])) }
