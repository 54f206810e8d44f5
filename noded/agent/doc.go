// Package agent is loam-noded: the daemon on every compute node. It
//
//   - registers with loam-ctld (hardware, GPUs, features, mounted file
//     systems, health, the jobs it still runs) and heartbeats;
//   - serves the controller on its TCP port: launch, signal (a job's, or
//     one step's: step_signal.go), terminate and time-limit requests,
//     each signed with the cluster key (pkg/auth);
//   - serves local users on its Unix socket: short-lived credentials minted
//     from the caller's SO_PEERCRED;
//   - starts one supervisor process per job (package supervisor) and
//     watches it over its control socket;
//   - starts the node's share of a job's srun steps (package step) when
//     the controller sends a step launch for a job it runs;
//   - reports job starts and ends as numbered events, exactly once across
//     its own restarts (package spool explains how), and the usage of
//     each srun step when its step process exits (step_usage.go).
//
// Restart: loam-noded can be killed at any time. On start it rebuilds its
// outbox from the spool, re-adopts every job whose supervisor still holds
// its lock, reports the ends that happened while it was away, sends those
// events, and only then registers, so the controller never mistakes a job
// that ended meanwhile for one the node lost.
//
// Emulation (Options.Emulate): many daemons share one host, each with its
// own node name, port, socket, spool and cgroup subtree; hardware is
// reported as slurm.conf configures it, and GPUs without NVML or gres.conf
// device files are fake character devices made under the node's spool.
package agent
