// Package cgfs works on control groups that exist through their files
// alone: it joins processes, lists, signals and kills them, reads the OOM
// count and removes groups, on cgroup v1 (one directory per controller
// under the same relative path) and v2 (one unified directory).
//
// It imports nothing beyond the standard library and x/sys, so that the
// per-job supervisor, a process started for every job, pays no start-up
// cost for creating groups: creation, with limits and device rules, is
// package isolation/cgroup's (containerd/cgroups/v3), done by the
// long-lived node daemon, whose groups are these same directories.
//
// Version 1 has no cgroup.kill: Kill freezes the group, sends SIGKILL to
// every process, thaws it so the kills are delivered, and repeats until the
// group is empty, so a process that forks while being killed cannot
// escape. On v2 Kill writes cgroup.kill where the kernel has it.
package cgfs
