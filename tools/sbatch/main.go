// Command sbatch submits a batch script to Loam, as Slurm's sbatch does.
package main

import (
	"os"

	"github.com/loamhpc/loam/tools/command"
)

func main() { os.Exit(command.Main(command.Sbatch, os.Args[1:])) }
