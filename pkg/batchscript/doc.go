// Package batchscript reads batch scripts the way Slurm's sbatch does: it
// checks that a script may be submitted at all (Check), builds the script
// for --wrap (Wrap), and extracts the #SBATCH directives (Directives) as
// argument strings that the sbatch option table then parses exactly as it
// parses a command line. Foreign extracts the #BSUB and #PBS lines sbatch
// translates, by rules of their own (foreign.go).
//
// The rules for directives, all as in sbatch:
//   - Only lines that start with "#SBATCH" count, in column one and in that
//     case: "# SBATCH", "##SBATCH", "#sbatch" and an indented "#SBATCH" are
//     ordinary comments. "#SLURM" counts too, with a warning.
//   - Reading stops at the first line that is neither blank nor a comment,
//     so directives after the first command, or inside a heredoc, are
//     ignored.
//   - A line holds any number of arguments separated by white space.
//     Single and double quotes group characters and are removed; a
//     backslash makes the next character literal; an unquoted "#" ends the
//     line ("--comment=abc#def" is "--comment=abc"), a quoted one is kept.
//   - Nothing is expanded: "${VAR}" stays as written.
//
// It is a leaf: no I/O; the caller reads the file.
package batchscript
