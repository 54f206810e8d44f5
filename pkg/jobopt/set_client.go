package jobopt

import (
	"strconv"

	"github.com/loamhpc/loam/pkg/job"
)

// Action is what the command line asks instead of a submission.
type Action int

// Actions of the early options, which sbatch takes before anything else.
const (
	Submit  Action = iota // the normal case
	Help                  // --help: print the help text, exit 0
	Usage                 // --usage: print the usage text, exit 0
	Version               // --version: print the version, exit 0
	ListMPI               // srun --mpi=list: print MPITypes, exit 0
)

func setHelp(b *builder, v value) error    { b.action = Help; return nil }
func setUsage(b *builder, v value) error   { b.action = Usage; return nil }
func setVersion(b *builder, v value) error { b.action = Version; return nil }
func setQuiet(b *builder, v value) error   { b.quiet = !v.reset; return nil }
func setWrap(b *builder, v value) error    { s := v.str; b.wrap = &s; return nil }

// setVerbose counts -v; SBATCH_DEBUG gives the level as a number.
func setVerbose(b *builder, v value) error {
	switch {
	case v.reset:
		b.verbose = 0
	case v.src == fromEnv:
		n, err := b.parseInt("--verbose", v.str, false)
		if err != nil {
			return err
		}
		b.verbose = n
	default:
		b.verbose++
	}
	return nil
}

func setParsable(b *builder, v value) error { b.parsable = !v.reset; return nil }
func setTestOnly(b *builder, v value) error { b.testOnly = !v.reset; return nil }
func setWait(b *builder, v value) error     { b.wait = !v.reset; return nil }

// setIgnorePBS accepts --ignore-pbs, which turns off the translation of
// #PBS and #BSUB lines; xlate.go looks for it where sbatch does.
func setIgnorePBS(b *builder, v value) error { return nil }

// parseInt is Slurm's parse_int: a whole decimal number, positive when
// asked; otherwise sbatch stops with exit status 1. Like Slurm it keeps the
// low 32 bits of a larger number.
func (b *builder) parseInt(name, s string, positive bool) (int, error) {
	v, n := cStrtol(s)
	if n != len(s) || v < 0 || (positive && v <= 0) {
		return 0, &Error{Code: ExitError, Lines: []string{
			b.p.prog() + ": error: Invalid numeric value \"" + s + "\" for " + name + "."}}
	}
	if v == 1<<63-1 {
		return 0, &Error{Code: ExitError, Lines: []string{
			b.p.prog() + ": error: Numeric argument (" + strconv.FormatInt(v, 10) + ") to big for " + name + "."}}
	}
	return int(int32(v)), nil
}

// cStrtol is C's strtol in base 10 (job.Strtol): leading white space and
// a sign are skipped, the value saturates, n is the length used (0 without
// digits).
func cStrtol(s string) (v int64, n int) { return job.Strtol(s) }
