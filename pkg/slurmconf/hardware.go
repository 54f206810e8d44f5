package slurmconf

import "math"

// hardware decodes a node's CPU layout and fills in what is missing the way
// Slurm does:
//
//  1. Boards, CoresPerSocket and ThreadsPerCore default to 1.
//  2. Sockets is Boards x SocketsPerBoard when SocketsPerBoard is given
//     (which wins over Sockets), else CPUs / (CoresPerSocket x
//     ThreadsPerCore) when that divides evenly, else Boards.
//  3. CPUs defaults to Sockets x CoresPerSocket x ThreadsPerCore.
//  4. CPUs that match neither Sockets, Sockets x Cores nor Sockets x Cores
//     x Threads are reset to the full product (a warning, as Slurm only
//     logs it).
func (x *dec) hardware(n *Node) {
	v := map[string]int64{"Boards": 1, "CoresPerSocket": 1, "ThreadsPerCore": 1}
	for _, k := range []string{"CPUs", "Boards", "Sockets", "SocketsPerBoard", "CoresPerSocket", "ThreadsPerCore"} {
		f, ok := x.get(k)
		if !ok {
			continue
		}
		n, err := parseCount(f.Value, math.MaxUint16)
		switch {
		case err != nil:
			x.bad(f, "%v", err)
		case n == 0:
			x.bad(f, "must be at least 1")
		default:
			v[k] = n
		}
	}
	_, hasCPUs := v["CPUs"]
	_, hasSockets := v["Sockets"]
	spb, hasSPB := v["SocketsPerBoard"]
	boards, cores, threads := v["Boards"], v["CoresPerSocket"], v["ThreadsPerCore"]
	if hasSockets && hasSPB {
		f, _ := x.get("Sockets")
		x.d.warnf(f.Pos, x.rec, f.Key, "Sockets and SocketsPerBoard are both set: SocketsPerBoard is used")
		hasSockets = false
	}
	sockets := v["Sockets"]
	switch {
	case hasSockets:
	case hasSPB:
		sockets = boards * spb
	case hasCPUs && v["CPUs"]%(cores*threads) == 0 && v["CPUs"]/(cores*threads) > 0:
		sockets = v["CPUs"] / (cores * threads)
	default:
		sockets = boards
	}
	cpus := v["CPUs"]
	if !hasCPUs {
		cpus = sockets * cores * threads
	}
	if sockets < boards {
		x.hwWarn("Boards", "Sockets (%d) < Boards (%d): Boards reset to 1", sockets, boards)
		boards = 1
	}
	if cpus != sockets && cpus != sockets*cores && cpus != sockets*cores*threads {
		x.hwWarn("CPUs", "CPUs=%d matches neither Sockets, Sockets*CoresPerSocket nor Sockets*CoresPerSocket*ThreadsPerCore: reset to %d",
			cpus, sockets*cores*threads)
		cpus = sockets * cores * threads
	}
	n.CPUs, n.Boards, n.Sockets = int(cpus), int(boards), int(sockets)
	n.CoresPerSocket, n.ThreadsPerCore = int(cores), int(threads)
}

// hwWarn warns about key, at the key's line when it is written.
func (x *dec) hwWarn(key, format string, args ...any) {
	f, ok := x.get(key)
	if !ok {
		f = field{Key: key, Pos: x.pos}
	}
	rec := x.rec
	if f.rec != "" {
		rec = f.rec
	}
	x.d.warnf(f.Pos, rec, key, format, args...)
}
