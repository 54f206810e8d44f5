package slurmconf

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Partition keys of GPU clusters (partkeys): DefCPUPerGPU (also a cluster
// key) gives a GPU job without -c or --cpus-per-gpu that many CPUs per
// GPU; MaxCPUsPerNode bounds the CPUs a partition's jobs may hold on any
// one node (a CPU partition over GPU nodes leaves CPUs for the GPU jobs);
// ExclusiveUser=YES lets a node run the jobs of one user at a time;
// RootOnly=YES lets only root submit there.

// PartKeys are a partition's keys of this file.
type PartKeys struct {
	// DefCPUPerGPU is the partition's own default (0: unset, the
	// cluster's applies; scontrol shows it as JobDefaults=DefCpuPerGPU=N).
	DefCPUPerGPU int64
	// MaxCPUsPerNode is Unlimited unless the line sets it.
	MaxCPUsPerNode int64
	ExclusiveUser  bool
	RootOnly       bool
	// ReqResv=YES takes only jobs that name a reservation (partreq.go).
	ReqResv bool
	// AllocNodes are the hosts whose jobs the partition takes, expanded;
	// nil is ALL. AllocNodesSpec is the value as written.
	AllocNodes     []string
	AllocNodesSpec string
}

// decodeCPUPerGPU reads the cluster's DefCPUPerGPU.
func decodeCPUPerGPU(x *dec, c *Config) {
	c.DefCPUPerGPU = 0
	x.count("DefCPUPerGPU", &c.DefCPUPerGPU, maxCount)
}

// decodePartKeys reads a partition line's keys.
func decodePartKeys(x *dec, p *Partition) {
	p.MaxCPUsPerNode = Unlimited
	x.count("DefCPUPerGPU", &p.DefCPUPerGPU, maxCount)
	x.limit("MaxCPUsPerNode", &p.MaxCPUsPerNode, maxCount)
	x.boolean("ExclusiveUser", &p.ExclusiveUser)
	x.boolean("RootOnly", &p.RootOnly)
	decodePartReq(x, &p.PartKeys) // partreq.go
}

// maxCount bounds CPU counts: no node has more.
const maxCount = 1 << 24

// CPUsPerGPUDefault is the CPUs per GPU a GPU job in partition p (the
// cluster's without one) gets without -c or --cpus-per-gpu: the
// partition's DefCPUPerGPU, else the cluster's; 0 for none.
func (c *Config) CPUsPerGPUDefault(p *Partition) int64 {
	if p != nil && p.DefCPUPerGPU > 0 {
		return p.DefCPUPerGPU
	}
	return c.DefCPUPerGPU
}

// CPUsPerNodeLimit is p's MaxCPUsPerNode, 0 for none.
func (p *Partition) CPUsPerNodeLimit() int64 {
	if p == nil || p.MaxCPUsPerNode == Unlimited || p.MaxCPUsPerNode <= 0 {
		return 0
	}
	return p.MaxCPUsPerNode
}

// jobDefaultsText is scontrol show config's JobDefaults: the cluster's
// DefCPUPerGPU as the peer prints it ("DefCpuPerGPU=2"), else (null).
func jobDefaultsText(c *Config) string {
	if c.DefCPUPerGPU > 0 {
		return "DefCpuPerGPU=" + strconv.FormatInt(c.DefCPUPerGPU, 10)
	}
	return "(null)"
}

// JobDefaults is a partition's JobDefaults list as scontrol update sets
// it: DefCpuPerGPU and DefMemPerGPU (MB), each 0 when the list lacks it.
type JobDefaults struct {
	CPUPerGPU, MemPerGPU int64
}

// ParseJobDefaults reads "DefCpuPerGPU=N,DefMemPerGPU=M" as Slurm's
// job_defaults_list does: names in any case, whole non-negative numbers;
// anything else is an error ("Invalid JobDefaults specification").
func ParseJobDefaults(s string) (JobDefaults, error) {
	var out JobDefaults
	for _, tok := range strings.Split(s, ",") {
		if tok == "" {
			continue // strtok skips empty items
		}
		name, val, ok := strings.Cut(tok, "=")
		n, err := strconv.ParseInt(val, 10, 64)
		if !ok || err != nil || n < 0 || n == math.MaxInt64 {
			return JobDefaults{}, fmt.Errorf("JobDefaults: %q is not NAME=number", tok)
		}
		switch {
		case strings.EqualFold(name, "DefCpuPerGPU"):
			out.CPUPerGPU = n
		case strings.EqualFold(name, "DefMemPerGPU"):
			out.MemPerGPU = n
		default:
			return JobDefaults{}, fmt.Errorf("JobDefaults: %q is neither DefCpuPerGPU nor DefMemPerGPU", name)
		}
	}
	return out, nil
}
