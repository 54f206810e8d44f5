// Command scancel cancels or signals Loam jobs, as Slurm's scancel does.
package main

import (
	"os"

	"github.com/loamhpc/loam/tools/command"
)

func main() { os.Exit(command.Main(command.Scancel, os.Args[1:])) }
