package slurmconf

import "math"

// Step limits: KillOnBadExit (srun's -K when the user gives none),
// MaxTasksPerNode (the most tasks of one step on a node) and MaxStepCount
// (the most steps one job may create).

// Slurm 22.05's defaults and the largest values it accepts.
const (
	DefaultMaxTasksPerNode = 512
	DefaultMaxStepCount    = 40000
	maxTasksPerNodeLimit   = math.MaxUint16 - 1
)

// decodeStepLimits reads the cluster keys.
func decodeStepLimits(x *dec, c *Config) {
	var kill int64
	x.count("KillOnBadExit", &kill, math.MaxUint16) // any non-zero turns it on, as in Slurm
	c.KillOnBadExit = kill != 0
	x.count("MaxTasksPerNode", &c.MaxTasksPerNode, maxTasksPerNodeLimit)
	x.count("MaxStepCount", &c.MaxStepCount, math.MaxUint32-1)
	// Slurm reads 0 as "no value" and keeps the default.
	if c.MaxTasksPerNode == 0 {
		c.MaxTasksPerNode = DefaultMaxTasksPerNode
	}
	if c.MaxStepCount == 0 {
		c.MaxStepCount = DefaultMaxStepCount
	}
}
