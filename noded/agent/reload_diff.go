package agent

import (
	"reflect"
	"slices"

	"github.com/loamhpc/loam/pkg/slurmconf"
)

// restartKeys names what differs between the configuration the daemon
// started with and next but only a restart applies: where it listens,
// keeps its state and logs, the controller it talks to, the key it signs
// with, and the GPUs it found (rediscovering them would renumber the
// devices of running jobs). Keys that the command line overrides never
// differ here.
func restartKeys(start, next *nodeConfig) []string {
	var out []string
	add := func(changed bool, key string) {
		if changed {
			out = append(out, key)
		}
	}
	add(start.listen != next.listen, "Port")
	add(start.node.Addr != next.node.Addr, "NodeAddr")
	add(start.spool != next.spool, "SlurmdSpoolDir")
	add(start.socket != next.socket, "LoamNodedSocket")
	add(start.logFile != next.logFile, "SlurmdLogFile")
	add(start.ctldAddr != next.ctldAddr, "SlurmctldHost")
	add(start.keyFile != next.keyFile, "LoamKeyFile")
	add(!reflect.DeepEqual(start.node.GRES, next.node.GRES) || start.node.AutoDetect != next.node.AutoDetect, "Gres")
	return out
}

// changedKeys names the settings a reconfigure changed that take effect
// at once, for the log.
func changedKeys(old, next *settings) []string {
	o, n := old.cfg, next.cfg
	on, nn := old.node, next.node
	var out []string
	add := func(changed bool, key string) {
		if changed {
			out = append(out, key)
		}
	}
	add(o.NodeProlog.Prolog != n.NodeProlog.Prolog, "Prolog")
	add(o.NodeProlog.Epilog != n.NodeProlog.Epilog, "Epilog")
	add(o.NodeProlog.Flags != n.NodeProlog.Flags, "PrologFlags")
	add(o.NodeProlog.Timeout != n.NodeProlog.Timeout, "PrologEpilogTimeout")
	add(o.Scripts.TaskProlog != n.Scripts.TaskProlog, "TaskProlog")
	add(o.Scripts.TaskEpilog != n.Scripts.TaskEpilog, "TaskEpilog")
	add(o.Scripts.HealthCheckProgram != n.Scripts.HealthCheckProgram, "HealthCheckProgram")
	add(o.Scripts.HealthCheckInterval != n.Scripts.HealthCheckInterval, "HealthCheckInterval")
	add(o.Scripts.HealthCheckStates != n.Scripts.HealthCheckStates, "HealthCheckNodeState")
	add(o.SlurmdDebug != n.SlurmdDebug, "SlurmdDebug")
	add(o.KillWait != n.KillWait, "KillWait")
	add(o.PropagateRLimits != n.PropagateRLimits, "PropagateResourceLimits")
	add(o.Unkillable.Timeout != n.Unkillable.Timeout, "UnkillableStepTimeout")
	add(o.Unkillable.Program != n.Unkillable.Program, "UnkillableStepProgram")
	add(o.TmpFS != n.TmpFS, "TmpFS")
	add(on.TmpDisk != nn.TmpDisk, "TmpDisk")
	add(nodeShape(on) != nodeShape(nn), "CPUs")
	add(on.RealMemory != nn.RealMemory, "RealMemory")
	add(!slices.Equal(on.Features, nn.Features), "Features")
	add(!slices.Equal(on.SpecCPUs, nn.SpecCPUs), "CPUSpecList")
	return out
}

// nodeShape is a node line's CPU layout.
func nodeShape(n slurmconf.Node) [5]int {
	return [5]int{n.CPUs, n.Boards, n.Sockets, n.CoresPerSocket, n.ThreadsPerCore}
}
