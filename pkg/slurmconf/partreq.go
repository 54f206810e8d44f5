package slurmconf

import (
	"slices"
	"strings"
)

// Partition keys that choose which submissions a partition takes:
// ReqResv=YES only jobs that name an advance reservation; AllocNodes
// only jobs submitted from the listed hosts (a host list, ALL by
// default). Slurm answers both refusals "Access/permission denied".

// decodePartReq reads ReqResv and AllocNodes.
func decodePartReq(x *dec, p *PartKeys) {
	x.boolean("ReqResv", &p.ReqResv)
	x.str("AllocNodes", &p.AllocNodesSpec)
	f, _ := x.get("AllocNodes")
	hosts, err := parseAllocNodes(x.d, p.AllocNodesSpec)
	if err != nil {
		x.bad(f, "%v", err)
		p.AllocNodesSpec = ""
	}
	p.AllocNodes = hosts
}

// ParseAllocNodes expands an AllocNodes value: a comma-separated list of
// host lists; empty or ALL (in any case, anywhere in the list) is nil,
// every host.
func ParseAllocNodes(spec string) ([]string, error) {
	return parseAllocNodes(&diag{}, spec)
}

func parseAllocNodes(d *diag, spec string) ([]string, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, nil
	}
	names, err := expandBounded(d, spec, MaxNodes)
	if err != nil {
		return nil, err
	}
	if slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, "ALL") }) {
		return nil, nil
	}
	return names, nil
}

// AllowsAllocNode tells whether a job submitted from host may use p:
// any host without AllocNodes; else a listed one (by its short name
// too, as a host's name may come with its domain).
func (p *PartKeys) AllowsAllocNode(host string) bool {
	if p.AllocNodes == nil {
		return true
	}
	short, _, _ := strings.Cut(host, ".")
	return slices.Contains(p.AllocNodes, host) || slices.Contains(p.AllocNodes, short)
}
