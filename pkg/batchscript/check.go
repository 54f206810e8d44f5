package batchscript

import (
	"bytes"
	"strings"
)

// Error is a problem sbatch reports about a script, in its words. Each of
// Lines is printed after "sbatch: error: " (or "sbatch: fatal: " when Fatal
// is set); sbatch then exits with status 1.
type Error struct {
	Fatal bool
	Lines []string
}

func (e *Error) Error() string { return strings.Join(e.Lines, " ") }

// Check refuses what sbatch refuses before it reads any directive, with
// its messages, in its order: an empty script, one of white space only,
// one without "#!" at the very start, one holding a NUL byte, and one with
// DOS line breaks.
func Check(body []byte) error {
	switch {
	case len(body) == 0:
		return &Error{Lines: []string{"Batch script is empty!"}}
	case onlySpace(body):
		return &Error{Lines: []string{"Batch script contains only whitespace!"}}
	case !bytes.HasPrefix(body, []byte("#!")):
		return &Error{Lines: []string{
			"This does not look like a batch script.  The first",
			"line must start with #! followed by the path to an interpreter.",
			"For instance: #!/bin/sh",
		}}
	case bytes.IndexByte(body, 0) >= 0:
		return &Error{Lines: []string{
			"The Slurm controller does not allow scripts that",
			`contain a NULL character '\0'.`,
		}}
	case bytes.Contains(body, []byte("\r\n")):
		return &Error{Lines: []string{
			`Batch script contains DOS line breaks (\r\n)`,
			`instead of expected UNIX line breaks (\n).`,
		}}
	}
	return nil
}

// MaxScriptBytes is the largest script slurmctld accepts by default
// (SchedulerParameters=max_script_size, 4 MiB): a script of exactly this
// size is taken, one byte more is refused.
const MaxScriptBytes = 4 << 20

// CheckSize refuses a script larger than MaxScriptBytes with the words
// sbatch prints for slurmctld's refusal. sbatch checks it after the
// options, as Slurm's controller does, so that a script too large for a
// request body is refused clearly before it is sent.
func CheckSize(script string) error {
	if len(script) <= MaxScriptBytes {
		return nil
	}
	return &Error{Lines: []string{"Batch job submission failed: Pathname of a file, directory or other parameter too long"}}
}

// onlySpace reports whether body is white space up to its first NUL byte,
// as Slurm's test, which reads the script as a C string, sees it.
func onlySpace(body []byte) bool {
	for _, c := range body {
		if c == 0 {
			break
		}
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// isSpace is C's isspace in the C locale.
func isSpace(c byte) bool {
	return c == ' ' || ('\t' <= c && c <= '\r')
}

// Wrap returns the script sbatch --wrap submits for command.
func Wrap(command string) string {
	return "#!/bin/sh\n# This script was created by sbatch --wrap.\n\n" + command + "\n"
}
