// Package hostlist expands and compresses Slurm host lists ("gpu[001-004,07]",
// "r[1-2]n[01-02]") the way Slurm 22.05's `scontrol show hostnames`,
// `scontrol show hostlist` and `scontrol show hostlistsorted` do.
//
// Syntax accepted by Parse and Expand:
//
//   - Entries are separated by commas, spaces or tabs outside brackets;
//     empty entries are skipped ("a,,b" is a and b).
//   - An entry is a plain name ("login", "node7") or a name with one or more
//     bracket groups. A bracket group holds comma-separated numbers or
//     lo-hi ranges; the width of lo sets the zero padding of the whole range
//     ("[01-10]" gives 01..10, "[9-10]" gives 9 and 10).
//   - With several groups the entry must end in a group: "r[1-2]n[01-02]"
//     is valid, "n[1-2]x" is not, as in Slurm. The last group varies
//     fastest; the groups before it vary from the first (fastest) to the
//     one before last (slowest), which is the order Slurm produces.
//
// Invariants and limits:
//
//   - Expand keeps list order and duplicates, as scontrol show hostnames does.
//   - Compress sorts in Slurm's order and drops duplicates; Ranged keeps the
//     given order and duplicates, as scontrol show hostlist does.
//   - One range may hold at most MaxRange hosts and one bracket group at most
//     MaxRanges ranges (Slurm's MAX_RANGE and MAX_RANGES, both 64K);
//     Expand refuses lists of more than MaxHosts names. Count works on lists
//     of any size without building the names.
//
// Where Slurm silently turns malformed input into odd names, this package
// returns an error instead: unbalanced or stray brackets ("n[1-3",
// "n1]"), signs or spaces inside brackets ("n[+1]"), a range without an
// upper bound ("n[1-]", which Slurm reads as n1) and numbers that do not
// fit in 64 bits (which Slurm saturates). Configuration and job requests
// use this strict reading.
//
// ParseSlurm and ExpandSlurm read a list exactly as Slurm's hostlist_create
// does, for the scontrol host list commands whose output must match
// Slurm's on any input: "n[1-3" is the host "n]", "n1]" a host, "n[1-]"
// is n1, "n[+1-2]" is n01 and n02, and a newline is part of a name. Their
// errors say what Slurm says: a *RangeError for a range it names, ErrSyntax
// for text after the last group or a bracket inside one; ParseSlurmWarn
// also returns the errors Slurm prints and goes past (a Warning). List.SortSlurm
// sorts ranges and keeps duplicates, as scontrol show hostlistsorted does.
package hostlist
