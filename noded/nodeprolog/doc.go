// Package nodeprolog runs slurm.conf's Prolog and Epilog on a node, as
// slurmd does: as root, in an environment of the job's SLURM_* variables
// only (no PATH), with standard input /dev/null and standard output and
// error read and logged, never shown to the job. A path may be a glob:
// every match runs, one after the other, in reverse lexical order (as
// Slurm 22.05's slurmd runs them), and the first failure stops the rest.
// A script that outruns PrologEpilogTimeout has its process group killed.
// With PrologFlags=Serial one script runs at a time per node (an flock on
// a file in the node's spool).
package nodeprolog
