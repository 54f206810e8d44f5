// Package resource holds Slurm's resource vocabulary: memory sizes, GRES
// requests and TRES counts, with parsers and printers that match Slurm
// 22.05.
//
// Units: memory is always a count of megabytes (MiB, as Slurm's "M"); K, M,
// G and T are powers of 1024. Slurm prints sizes in the largest unit that
// keeps them exact to a half unit ("1.50G"), see FormatMemory.
//
// GRES names and types are case-sensitive and kept as written ("gpu:H100:1"
// stays H100); whether a name is configured (GresTypes) is for the
// controller to check, not this package.
//
// TRES lists are kept in Slurm's order: cpu, mem, energy, node, billing,
// fs/disk, vmem, pages, then every other TRES (gres/gpu, license/...,
// bb/...) sorted by name, which is the order Slurm gives them when they are
// configured in that order.
package resource
