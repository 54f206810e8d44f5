package jobopt

import (
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// setExportFile reads --export-file's variables, which replace sbatch's
// own environment as the base of the job's (environment): a number from
// 3 up that is an open descriptor of sbatch's is read from (through
// /proc, which reopens it), anything else is a file name.
func setExportFile(b *builder, v value) error {
	var data []byte
	err := fs.ErrNotExist
	if n, nerr := strconv.Atoi(v.str); nerr == nil && n >= 3 {
		data, err = b.readFile("/proc/self/fd/" + v.str)
	}
	if err != nil {
		data, err = b.readFile(v.str)
	}
	if err != nil {
		return b.exitError("Could not open user environment file " + v.str)
	}
	b.exportFile = exportFileEntries(data)
	return nil
}

// readFile reads a file an option names, relative to the working
// directory.
func (b *builder) readFile(name string) ([]byte, error) {
	if b.p.ReadFile == nil {
		return nil, fs.ErrNotExist
	}
	if !path.IsAbs(name) {
		name = path.Join(b.p.Cwd, name)
	}
	return b.p.ReadFile(name)
}

// exportFileEntries reads an --export-file as Slurm's env_array_from_file
// does: NAME=value entries each ended by a NUL byte (so values may hold
// new lines), up to the first empty entry; the last entry needs no NUL.
// An entry without "=", or with a name of 256 bytes or more, is skipped,
// and so are DISPLAY, ENVIRONMENT and HOSTNAME, which belong to the node.
// A later entry replaces an earlier one of the same name.
func exportFileEntries(data []byte) []string {
	var env envList
	for rest := string(data); rest != ""; {
		entry, tail, _ := strings.Cut(rest, "\x00")
		if entry == "" {
			break
		}
		rest = tail
		name, _, ok := strings.Cut(entry, "=")
		if !ok || len(name) >= 256 {
			continue
		}
		switch name {
		case "DISPLAY", "ENVIRONMENT", "HOSTNAME":
			continue
		}
		env.merge(entry)
	}
	if env.list == nil {
		return []string{}
	}
	return env.list
}
