// Package slurmconf reads the files an administrator writes for a Loam
// cluster (slurm.conf, gres.conf, topology.conf and Loam's own tenants.conf)
// into one typed Config, and checks it.
//
// It is a leaf: it reads files only through the fs.FS it is handed, does no
// other I/O, keeps no global state and never logs. Callers choose the root:
//
//	cfg, err := slurmconf.Load(os.DirFS("/"), "etc/slurm/slurm.conf")
//	if err != nil { ... }            // every parse error, file:line: key: why
//	if err := cfg.Validate(); err != nil { ... } // every cross-record problem
//	for _, w := range cfg.Warnings { ... }       // keys Loam ignores, etc.
//
// # Steps
//
//  1. Read: files become logical lines the way Slurm's parser makes them
//     (comments at an unescaped '#', a trailing '\' continues the line,
//     "Include FILE" relative to the including file, bounded in depth and
//     count).
//  2. Check keys: each line's keys are looked up case-insensitively in the
//     schema of its line type. A key Loam honours is decoded; a key Slurm
//     has and Loam does not use is a Warning; any other key is an error, as
//     it is in Slurm (a typo must not pass silently).
//  3. Decode: values are typed with Slurm's syntax (time limits, memory
//     sizes, host lists, GRES, TRES), and Xxx=DEFAULT lines supply the keys
//     later lines leave out.
//  4. Default: every field not written takes its built-in default (Default,
//     QueueDefaults), so a Config never has "unset" fields, except the
//     Inherit marker on per-user limits.
//  5. Validate (separate, never modifies the Config): names unique,
//     references resolved, GRES counts agree, quotas fit the cluster.
//
// Parse, Load and Validate never stop at the first problem: they return
// every *Error joined with errors.Join, in reading order (an included
// file's lines where its Include is).
//
// # Invariants
//
//   - A Config from Parse or Load is never nil, even with an error.
//   - Nodes are in file order (the node table); Partition.Nodes follows it.
//   - Nothing depends on map iteration order: the same files always give
//     the same Config, errors and warnings.
//   - Host lists and includes are bounded (MaxNodes, MaxIncludeDepth and a
//     total of expanded names), so hostile input fails instead of
//     exhausting memory.
//
// The man pages slurm.conf(5), gres.conf(5), topology.conf(5) and
// tenants.conf(5) in man/man5 document every key, its default, and what
// Loam does differently from Slurm.
package slurmconf
