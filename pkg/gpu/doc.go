// Package gpu finds a node's GPUs. A Discoverer reports Devices (index,
// UUID, model, memory, device file); the node daemon asks several in order
// and keeps the first answer that finds any GPU:
//
//  1. NVML (package gpu/nvml), when a driver is installed;
//  2. gres.conf File= entries (FromGRES), which name real device files;
//  3. a fake set for emulation (Fake), whose device files the daemon
//     creates itself as character devices with NVIDIA's major number, so
//     cgroup device rules name real devices even on a host without GPUs.
//
// Invariants: Devices are sorted by Index and indices are unique; a
// Discoverer that finds nothing returns an empty list and a nil error, an
// error only when something is broken (First collects those as reasons).
// The package does no cgo: NVML lives in gpu/nvml, which only the node
// daemon imports.
package gpu
