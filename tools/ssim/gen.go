package main

import (
	"bufio"
	"os"

	"github.com/loamhpc/loam/pkg/sim"
	"github.com/urfave/cli/v2"
)

func genCommand() *cli.Command {
	return &cli.Command{
		Name:  "gen",
		Usage: "write a seeded synthetic LLM-era trace (Acme/Helios calibrated) to standard output",
		Flags: []cli.Flag{
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed: the same seed gives the same trace"},
			&cli.Float64Flag{Name: "load", Value: 0.9, Usage: "offered load: submitted GPU-seconds over the cluster's"},
			&cli.IntFlag{Name: "nodes", Value: 256, Usage: "nodes of the target cluster"},
			&cli.IntFlag{Name: "gpus-per-node", Value: 8, Usage: "GPUs per node"},
			&cli.Float64Flag{Name: "days", Value: 7, Usage: "span of submissions in days"},
			&cli.IntFlag{Name: "max-gpus", Usage: "largest gang (default: half the cluster, at most 1024)"},
			&cli.BoolFlag{Name: "stats", Usage: "print the calibration statistics to standard error"},
		},
		Action: func(c *cli.Context) error {
			o := sim.GenOptions{Seed: c.Uint64("seed"), Load: c.Float64("load"), Nodes: c.Int("nodes"),
				GPUsPerNode: c.Int("gpus-per-node"), Days: c.Float64("days"), MaxGPUs: c.Int("max-gpus")}
			recs, err := sim.Generate(o)
			if err != nil {
				return err
			}
			w := bufio.NewWriter(os.Stdout)
			if err := sim.WriteTrace(w, recs); err != nil {
				return err
			}
			if err := w.Flush(); err != nil {
				return err
			}
			if c.Bool("stats") {
				return sim.Calibrate(recs, o.Nodes*max(o.GPUsPerNode, 1), o.Days).Write(os.Stderr)
			}
			return nil
		},
	}
}
