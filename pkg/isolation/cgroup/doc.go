// Package cgroup implements isolation.Isolator with Linux control groups:
// it creates groups through containerd/cgroups/v3 and hands back package
// cgfs's groups, which work on them through their files alone.
//
// New picks the version the host runs: where the v1 controllers are
// mounted (legacy and hybrid hosts, such as this project's build machines,
// whose cgroup2 mount has no controllers) it uses one directory per
// controller (cpuset, cpu, cpuacct, memory, pids, devices, freezer) under
// the same relative path; on a unified host it uses cgroup v2, where device
// rules are an eBPF program containerd attaches.
//
// The node daemon, long-lived and already holding containerd's packages,
// creates each job's group before it starts the job's supervisor; the
// supervisor only loads it (package cgfs), which spares every job the
// start-up cost of containerd's and protobuf's package initialisation.
package cgroup
