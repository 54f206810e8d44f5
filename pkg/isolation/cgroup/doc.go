// Package cgroup implements isolation.Isolator with Linux control groups
// through containerd/cgroups/v3.
//
// New picks the version the host runs: where the v1 controllers are
// mounted (legacy and hybrid hosts, such as this project's build machines,
// whose cgroup2 mount has no controllers) it uses one directory per
// controller (cpuset, cpu, cpuacct, memory, pids, devices, freezer) under
// the same relative path; on a unified host it uses cgroup v2, where device
// rules are an eBPF program containerd attaches.
//
// Version 1 has no cgroup.kill: Kill freezes the group, sends SIGKILL to
// every process, thaws it so the kills are delivered, and repeats until the
// group is empty, so a process that forks while being killed cannot
// escape.
package cgroup
