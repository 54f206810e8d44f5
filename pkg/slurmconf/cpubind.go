package slurmconf

import (
	"fmt"
	"strings"
)

// cpuBindWords maps each binding word CpuBind= accepts to the spelling
// scontrol prints it in. Slurm 22.05's xlate_cpu_bind_str takes these and
// no more: no rank, boards, map_cpu or mask_cpu, no quiet.
var cpuBindWords = map[string]string{
	"none": "none", "no": "none",
	"sockets": "sockets", "socket": "sockets",
	"ldoms": "ldoms", "ldom": "ldoms",
	"cores": "cores", "core": "cores",
	"threads": "threads", "thread": "threads",
	"off": "off",
}

// ParseCPUBind reads a node's or partition's CpuBind= value (slurm.conf,
// scontrol update) as Slurm 22.05 does: words separated by "," or ";",
// empty words skipped, any case; at most one binding (none, sockets,
// ldoms, cores, threads or off, singular forms and "no" allowed) plus
// verbose (or v). It returns the value as scontrol show node prints it,
// verbose first and the binding in its plural spelling ("verbose,cores"
// for "Core,V"); "" for an empty value.
func ParseCPUBind(v string) (string, error) {
	var verbose bool
	var bind string
	for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' }) {
		lw := strings.ToLower(w)
		if lw == "verbose" || lw == "v" {
			verbose = true
			continue
		}
		b, ok := cpuBindWords[lw]
		if !ok {
			return "", fmt.Errorf("%q is not a CpuBind word (none, sockets, ldoms, cores, threads, off, verbose)", w)
		}
		if bind != "" {
			return "", fmt.Errorf("%q: more than one binding", v)
		}
		bind = b
	}
	switch {
	case verbose && bind != "":
		return "verbose," + bind, nil
	case verbose:
		return "verbose", nil
	}
	return bind, nil
}

// cpuBind decodes a CpuBind key; a bad value is an error naming the line
// (slurmctld logs it and ignores the key).
func (x *dec) cpuBind(dst *string) {
	f, ok := x.get("CpuBind")
	if !ok {
		return
	}
	v, err := ParseCPUBind(f.Value)
	if err != nil {
		x.bad(f, "%v", err)
		return
	}
	*dst = v
}
