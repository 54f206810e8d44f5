package jobopt

import (
	"strings"
)

// setExportFile reads --export-file's variables, which replace sbatch's
// own environment as the base of the job's (environment). The file, or
// descriptor, is read through Parser.ReadExportFile.
func setExportFile(b *builder, v value) error {
	if b.p.ReadExportFile == nil {
		return b.exitError("Could not open user environment file " + v.str)
	}
	data, err := b.p.ReadExportFile(v.str)
	if err != nil {
		return b.exitError("Could not open user environment file " + v.str)
	}
	b.exportFile = exportFileEntries(data)
	return nil
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
