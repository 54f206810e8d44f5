package jobopt

import (
	"fmt"
	"time"

	"github.com/loamhpc/loam/pkg/job"
)

// builder collects one submission from its option occurrences.
type builder struct {
	p   *Parser
	req job.Request

	// Client-only settings.
	parsable, testOnly, wait bool
	quiet                    bool
	verbose                  int
	wrap                     *string
	action                   Action

	// Where each memory option was last set, for Slurm's rule that the
	// command line (or script) beats the environment.
	memSrc map[string]source
	// gresNone: --gres=none, which sends no GRES at all.
	gresNone bool
	// exportSpec is --export as given, for SLURM_EXPORT_ENV.
	exportSpec string
	// exportFile are --export-file's variables; nil: not given.
	exportFile []string
	// bbfPath is sbatch --bbf's file and bbf its text, added to the
	// script (recorded.go).
	bbfPath, bbf string
	// propagate is --propagate's list ("" for every limit); nil: not
	// given (rlimits.go).
	propagate *string
	// unnamed: the job got no name (a script on stdin); Slurm then calls
	// it "sbatch" but does not export SLURM_JOB_NAME.
	unnamed bool
	// gpuSpecs are the --gpus* values as given, for SLURM_GPUS*.
	gpuSpecs map[string]string
	// tasksPerGPU is --ntasks-per-gpu: without -n it sets the task count.
	tasksPerGPU int
	warnings    []string
	// arbitrary is -m arbitrary, which needs -w.
	arbitrary bool
	// passed are the options Loam does not act on, by long name, as last
	// given: sbatch still exports them as SLURM_* (passedVariables).
	passed map[string]value
	// extraSet: -B was given (and not dropped for --hint), which makes
	// its counts the task count (layout.go).
	extraSet bool
	// switches is what -v shows of --switches (switches.go).
	switches switchState
	// pbsUmask is #PBS -W umask=, for SLURM_UMASK; nil: not given.
	pbsUmask *int
	// clusters is the last -M value (clusters.go); nil: not given.
	clusters *string
}

func newBuilder(p *Parser) *builder {
	return &builder{p: p, memSrc: map[string]source{}, gpuSpecs: map[string]string{}, passed: map[string]value{}}
}

// apply runs one occurrence of o.
func (b *builder) apply(o *Option, v value) error {
	if v.reset {
		delete(b.passed, o.Long)
	} else {
		b.passed[o.Long] = v
	}
	if o.set == nil {
		if err := b.checkValue(o, v); err != nil {
			return err
		}
		b.ignored(v)
		return nil
	}
	if err := o.set(b, v); err != nil {
		return err
	}
	return b.checkValue(o, v)
}

// ignored says that Loam ignores the option v gave, unless v came from
// an input variable (which scripts set for Slurm and need not hear of).
func (b *builder) ignored(v value) {
	if v.src != fromEnv {
		b.warn("Loam ignores " + v.name)
	}
}

func (b *builder) warn(msg string) {
	b.warnings = append(b.warnings, b.p.prog()+": warning: "+msg)
}

// clientError is an error sbatch prints as "sbatch: error: ..." and exits
// 255 for.
func (b *builder) clientError(format string, args ...any) error {
	return &Error{Code: ExitClient, Lines: []string{b.p.prog() + ": error: " + fmt.Sprintf(format, args...)}}
}

// exitError is an error sbatch exits with status 1 (or SLURM_EXIT_ERROR) for.
func (b *builder) exitError(lines ...string) error {
	e := &Error{Code: b.p.errorExit()}
	for _, l := range lines {
		e.Lines = append(e.Lines, b.p.prog()+": error: "+l)
	}
	return e
}

// fatal is an error Slurm reports with fatal(): always exit status 1.
func (b *builder) fatal(msg string) error {
	return &Error{Code: ExitError, Lines: []string{b.p.prog() + ": fatal: " + msg}}
}

// now is the submission time every relative time is read against.
func (b *builder) now() time.Time { return b.p.Now }
