package supervisor

import (
	"errors"
	"io/fs"
	"os"
	"strings"
)

// shebangMax is how much of a script slurmstepd reads to name its
// interpreter in the "bad interpreter" message.
const shebangMax = 255

// batchArgv is what the shim execs for the batch script at path (whose
// text the supervisor holds, so nothing is read back): the script and its
// arguments, or, when the script's #! interpreter does not exist, a
// command that fails as slurmstepd's execve does. slurmstepd writes
// "slurmstepd-NODE: error: execve(): bad interpreter(LINE): No such file
// or directory" into the job's error file and exits with the errno (2),
// so the job ends FAILED with ExitCode=2:0 rather than the shell's 127.
func batchArgv(path, text, node string, argv []string) []string {
	line, ok := missingInterpreter(text)
	if !ok {
		return append([]string{path}, argv...)
	}
	msg := "slurmstepd-" + node + ": error: execve(): bad interpreter(" + line + "): No such file or directory"
	return []string{shell, "-c", `printf '%s\n' "$1" >&2; exit 2`, "loam-exec", msg}
}

// missingInterpreter reads the #! line of a script's text; ok when the
// interpreter it names does not exist. line is the text after "#!" up to
// the newline, within the first shebangMax bytes as slurmstepd reads it.
func missingInterpreter(text string) (line string, ok bool) {
	line, isShebang := strings.CutPrefix(text[:min(len(text), shebangMax)], "#!")
	if !isShebang {
		return "", false
	}
	line, _, _ = strings.Cut(line, "\n")
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return "", false
	}
	_, err := os.Stat(fields[0])
	return line, errors.Is(err, fs.ErrNotExist)
}
