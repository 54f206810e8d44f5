// Command sacct shows the accounting of Loam jobs, as Slurm's sacct does.
package main

import (
	"os"

	"github.com/loamhpc/loam/tools/command"
)

func main() { os.Exit(command.Main(command.Sacct, os.Args[1:])) }
