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

// batchArgv is what the shim execs for the batch script: the script and
// its arguments, or, when the script's #! interpreter does not exist, a
// command that fails as slurmstepd's execve does. slurmstepd writes
// "slurmstepd-NODE: error: execve(): bad interpreter(LINE): No such file
// or directory" into the job's error file and exits with the errno (2),
// so the job ends FAILED with ExitCode=2:0 rather than the shell's 127.
func batchArgv(script, node string, argv []string) []string {
	line, ok := missingInterpreter(script)
	if !ok {
		return append([]string{script}, argv...)
	}
	msg := "slurmstepd-" + node + ": error: execve(): bad interpreter(" + line + "): No such file or directory"
	return []string{shell, "-c", `printf '%s\n' "$1" >&2; exit 2`, "loam-exec", msg}
}

// missingInterpreter reads script's #! line; ok when the interpreter it
// names does not exist. line is the text after "#!" up to the newline.
func missingInterpreter(script string) (line string, ok bool) {
	f, err := os.Open(script)
	if err != nil {
		return "", false
	}
	defer f.Close()
	buf := make([]byte, shebangMax)
	n, _ := f.Read(buf)
	line, isShebang := strings.CutPrefix(string(buf[:n]), "#!")
	if !isShebang {
		return "", false
	}
	line, _, _ = strings.Cut(line, "\n")
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return "", false
	}
	_, err = os.Stat(fields[0])
	return line, errors.Is(err, fs.ErrNotExist)
}
