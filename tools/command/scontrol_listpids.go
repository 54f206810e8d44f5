package command

import (
	"context"
	"os"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/client"
)

// scontrol listpids asks the node daemons of this host, on their Unix
// sockets, for their jobs' processes. LoamNodedSocket with "%n" names
// one socket per node (emulated nodes share a host): NODENAME picks that
// node's daemon; without it every node daemon with a socket here
// answers, in slurm.conf's node order.

// nodeSocket is one node daemon reachable on this host.
type nodeSocket struct{ node, path string }

// localNodeSockets finds this host's node daemons, or NODENAME's; tests
// replace it.
var localNodeSockets = func(node string) ([]nodeSocket, error) {
	cfg, err := loadConfig()
	if cfg == nil {
		return nil, err
	}
	p := cfg.LoamNodedSocket
	if v := os.Getenv(client.EnvNodedSocket); v != "" && !strings.Contains(p, "%n") {
		p = v
	}
	var out []nodeSocket
	for _, n := range cfg.Nodes {
		if node != "" && n.Name != node {
			continue
		}
		path := strings.ReplaceAll(p, "%n", n.Name)
		if fi, err := os.Stat(path); err == nil && fi.Mode()&os.ModeSocket != 0 {
			out = append(out, nodeSocket{node: n.Name, path: path})
		}
		if !strings.Contains(p, "%n") && len(out) > 0 {
			break // one daemon for the whole host
		}
	}
	return out, nil
}

// nodePids asks one node daemon; tests replace it.
var nodePids = client.NodePids

const listpidsHeader = "PID      JOBID    STEPID   LOCALID GLOBALID\n"

// listpids handles "listpids [JOBID[.STEP]] [NODENAME]".
func (s *scontrol) listpids(argv []string) {
	if len(argv) > 3 {
		s.fail("too many arguments for keyword:%s\n", argv[0])
		return
	}
	var req api.PidsRequest
	ref, node := "", ""
	if len(argv) > 1 {
		ref = argv[1]
	}
	if len(argv) > 2 {
		node = argv[2]
	}
	if ref != "" {
		jid, step, hasStep := strings.Cut(ref, ".")
		n, err := strconv.ParseUint(jid, 10, 32)
		if err != nil {
			s.fail("%q does not look like a jobid\n", ref)
			return
		}
		req.JobID = uint32(n)
		if hasStep {
			if _, err := strconv.ParseUint(step, 10, 32); err != nil {
				s.w.printf("%s", listpidsHeader)
				s.w.raw(sprintf("%q does not look like a stepid\n", ref))
				return // scontrol leaves the status 0
			}
			req.Step = step
		}
	}
	s.w.printf("%s", listpidsHeader)
	socks, err := localNodeSockets(node)
	if err != nil || (node != "" && len(socks) == 0) {
		s.w.raw("scontrol: error: no loam-noded socket for node " + node + " on this host\n")
	}
	s.printPids(socks, &req, node)
}

// printPids asks each daemon in socks and prints the rows, then Slurm's
// message when nothing matched: with no step at all on the host (Slurm's
// stepd_available finds none) the job or step "does not exist", else the
// job has no steps there.
func (s *scontrol) printPids(socks []nodeSocket, req *api.PidsRequest, node string) {
	rows := s.pidRows(socks, req, true)
	where := node
	if where == "" {
		where = "(null)"
	}
	switch {
	case rows > 0:
	case req.JobID == 0:
		s.fail("No job steps exist on this node.\n")
	case s.pidRows(socks, &api.PidsRequest{}, false) == 0 && req.Step == "":
		s.fail("JobId=%d does not exist on node %s.\n", req.JobID, where)
	case req.Step != "":
		s.fail("StepId=%d.%s does not exist on node %s.\n", req.JobID, req.Step, where)
	default:
		s.fail("There are no steps for job %d on node %s.\n", req.JobID, where)
	}
}

// pidRows asks each daemon in socks for req's processes and counts them,
// printing them (and the daemons' errors) when print is set.
func (s *scontrol) pidRows(socks []nodeSocket, req *api.PidsRequest, print bool) int {
	rows := 0
	for _, sk := range socks {
		resp, err := nodePids(s.ctx, sk.path, req)
		if err != nil {
			if print {
				s.w.raw("scontrol: error: " + sk.node + ": " + errText(err) + "\n")
			}
			continue
		}
		rows += len(resp.Procs)
		for _, p := range resp.Procs {
			if print {
				s.w.printf("%-8d %-8d %-8s %-7s %-8s\n", p.PID, p.JobID, p.Step, taskID(p.LocalID), taskID(p.GlobalID))
			}
		}
	}
	return rows
}

func taskID(n int) string {
	if n < 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

// pidinfo handles "pidinfo PID": the job whose processes include PID on
// this host's node daemons.
func (s *scontrol) pidinfo(argv []string) {
	switch {
	case len(argv) > 2:
		s.fail("too many arguments for keyword:%s\n", argv[0])
		return
	case len(argv) < 2:
		s.fail("missing argument for keyword:%s\n", argv[0])
		return
	}
	pid, _ := strconv.Atoi(argv[1])
	socks, _ := localNodeSockets("")
	for _, sk := range socks {
		resp, err := nodePids(context.WithoutCancel(s.ctx), sk.path, &api.PidsRequest{})
		if err != nil {
			continue
		}
		for _, p := range resp.Procs {
			if p.PID == pid && pid > 0 {
				s.w.printf("Slurm job id %d\n", p.JobID)
				return
			}
		}
	}
	s.fail("Failed to locate job for requested pid\n")
}
