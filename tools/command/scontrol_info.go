package command

import (
	"os"
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// scontrol's show entities that come from the configuration files rather
// than the controller (daemons, aliases, topology), and those Loam has
// no equivalent of (licenses, front ends, burst buffers, the association
// manager's cache, federation), answered with the peer's text for a
// cluster without them.

// loadConfig reads slurm.conf as every command finds it; tests replace it.
var loadConfig = client.LoadConfig

// showStatic handles the show entities above; false when tag is none of
// them.
func (s *scontrol) showStatic(argv []string, tag, val string, hasVal bool) bool {
	switch {
	case abbrev(tag, "aliases", 1):
		// Loam's NodeName lines name one node each: no aliases to show.
	case abbrev(tag, "assoc_mgr", 2), abbrev(tag, "cache", 2):
		s.w.printf("Current Association Manager state\n\nNo users currently cached in Slurm.\n\n\n" +
			"No associations currently cached in Slurm.\n\n\nNo QOS currently cached in Slurm.\n\n")
	case abbrev(tag, "burstbuffer", 2), abbrev(tag, "bbstat", 2), abbrev(tag, "dwstat", 2):
		// No burst buffer plugin: nothing, as scontrol prints.
	case abbrev(tag, "daemons", 1):
		if hasVal {
			s.fail("too many arguments for keyword:%s\n", argv[0])
			break
		}
		s.showDaemons()
	case abbrev(tag, "federation", 3):
		// Not a federation member: scontrol prints nothing.
	case abbrev(tag, "frontendname", 1):
		// No front end nodes: a named one is not found, as scontrol says;
		// an empty name prints nothing.
		switch {
		case hasVal && val == "":
		case hasVal:
			s.exit = 1
			if !s.quiet {
				s.w.printf("Node %s not found\n", val)
			}
		default:
			s.w.printf("No nodes in the system\n")
		}
	case abbrev(tag, "licenses", 2):
		s.showLicenses(val, hasVal) // scontrol_licenses.go
	case abbrev(tag, "slurmd", 2):
		s.fail("scontrol: error: show slurmd is not supported: loam-noded reports through the controller (scontrol show node)\n")
	case abbrev(tag, "topology", 1):
		s.showTopology(val, hasVal)
	default:
		return false
	}
	return true
}

// showDaemons prints which of Slurm's daemons this host runs: slurmctld
// where a SlurmctldHost names it, slurmd where a node lives (loam-ctld
// and loam-noded in Loam, named as Slurm's for scripts).
func (s *scontrol) showDaemons() {
	cfg, _ := loadConfig()
	if cfg == nil {
		s.fail("scontrol: error: cannot read slurm.conf\n")
		return
	}
	host, _ := os.Hostname()
	local := func(names ...string) bool {
		for _, n := range names {
			switch n {
			case "localhost", "127.0.0.1", "::1", s.env.Host, host:
				return true
			}
		}
		return false
	}
	var out []string
	for _, h := range cfg.SlurmctldHosts {
		if local(h.Host, h.Addr) {
			out = append(out, "slurmctld")
			break
		}
	}
	for _, n := range cfg.Nodes {
		if local(n.Name, n.Hostname, n.Addr) {
			out = append(out, "slurmd")
			break
		}
	}
	s.w.printf("%s\n", strings.Join(out, " "))
}

// showTopology prints topology.conf's switches in Slurm's layout:
// "SwitchName=S Level=L LinkSpeed=N Nodes=... Switches=... ", leaves at
// level 0, a switch one above its highest child. With a name, only that
// switch or the switches holding that node; errors go to standard error
// with status 0, as scontrol's.
func (s *scontrol) showTopology(name string, has bool) {
	cfg, _ := loadConfig()
	if cfg == nil || cfg.Topology == nil || len(cfg.Topology.Switches) == 0 {
		if has && name != "" {
			s.w.raw("scontrol: error: Topology information contains no switch or node named " + name + "\n")
		} else {
			s.w.raw("scontrol: error: No topology information available\n")
		}
		return
	}
	lines := topologyLines(cfg.Topology, name, has)
	if len(lines) == 0 {
		s.w.raw("scontrol: error: Topology information contains no switch or node named " + name + "\n")
		return
	}
	for _, l := range lines {
		s.w.printf("%s\n", l)
	}
}

// topologyLines formats the switches of t (all, or those matching name).
func topologyLines(t *slurmconf.Topology, name string, has bool) []string {
	byName := map[string]*slurmconf.Switch{}
	for i := range t.Switches {
		byName[t.Switches[i].Name] = &t.Switches[i]
	}
	levels := map[string]int{}
	var level func(sw *slurmconf.Switch, depth int) int
	level = func(sw *slurmconf.Switch, depth int) int {
		if l, ok := levels[sw.Name]; ok {
			return l
		}
		l := 0
		for _, c := range sw.Switches {
			if cs := byName[c]; cs != nil && depth < len(t.Switches) {
				l = max(l, level(cs, depth+1)+1)
			}
		}
		levels[sw.Name] = l
		return l
	}
	var nodes func(sw *slurmconf.Switch, depth int) []string
	nodes = func(sw *slurmconf.Switch, depth int) []string {
		out := slices.Clone(sw.Nodes)
		for _, c := range sw.Switches {
			if cs := byName[c]; cs != nil && depth < len(t.Switches) {
				out = append(out, nodes(cs, depth+1)...)
			}
		}
		return out
	}
	var out []string
	for i := range t.Switches {
		sw := &t.Switches[i]
		ns := nodes(sw, 0)
		if has && sw.Name != name && !slices.Contains(ns, name) {
			continue
		}
		speed := sw.LinkSpeed
		if speed == 0 {
			speed = 1 // topology.conf's default
		}
		b := sprintf("SwitchName=%s Level=%d LinkSpeed=%d ", sw.Name, level(sw, 0), speed)
		if len(ns) > 0 {
			b += "Nodes=" + hostlist.Compress(uniq(ns)) + " "
		}
		if len(sw.Switches) > 0 {
			b += "Switches=" + hostlist.Compress(sw.Switches) + " "
		}
		out = append(out, b)
	}
	return out
}

// uniq sorts names and drops repeats.
func uniq(names []string) []string {
	out := slices.Clone(names)
	slices.Sort(out)
	return slices.Compact(out)
}
