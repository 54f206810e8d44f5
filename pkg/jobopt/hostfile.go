package jobopt

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/loamhpc/loam/pkg/hostlist"
)

// readHostFile reads a host file as Slurm's slurm_read_hostfile does, for
// --nodefile, a -w naming a file and SLURM_HOSTFILE: "#" starts a comment
// ("\#" is a literal one), names are separated by commas (and blanks, as
// a host list reads them), "name*N" repeats a name N times, and a line
// that does not start with a letter or digit is refused. It returns the
// names in order, repeats kept, or an error whose lines are Slurm's.
func readHostFile(file, cwd string) ([]string, error) {
	path := file
	if !filepath.IsAbs(path) && cwd != "" {
		path = filepath.Join(cwd, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &hostFileError{fmt.Sprintf("slurm_allocate_resources error opening file %s, %s", file, errnoText(err))}
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 0; sc.Scan(); {
		line++
		text := stripHostComment(sc.Text())
		if text == "" {
			continue
		}
		if c := text[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return nil, &hostFileError{fmt.Sprintf("Invalid hostfile %s contents on line %d", file, line)}
		}
		for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' }) {
			name, count := tok, 1
			if i := strings.IndexByte(tok, '*'); i >= 0 {
				if n, _ := strconv.Atoi(strings.TrimSpace(leadingDigits(tok[i+1:]))); n != 0 {
					name, count = tok[:i], n
				}
			}
			hosts, err := hostlist.Expand(strings.Join(strings.Fields(name), ","))
			if err != nil {
				return nil, &hostFileError{fmt.Sprintf("Invalid hostfile %s contents on line %d", file, line)}
			}
			for ; count > 0; count-- {
				names = append(names, hosts...)
			}
		}
	}
	if len(names) == 0 {
		return nil, &hostFileError{"Hostlist is empty!"}
	}
	return names, nil
}

// hostFileError is a host file Slurm's reader refuses, in its words.
type hostFileError struct{ line string }

func (e *hostFileError) Error() string { return e.line }

// stripHostComment cuts a line at its first "#" not written "\#" (which
// stays as "#").
func stripHostComment(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '#':
			b.WriteByte('#')
			i++
		case s[i] == '#':
			return b.String()
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// errnoText is the C library's text for the error under err ("No such
// file or directory").
func errnoText(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		s := errno.Error()
		return strings.ToUpper(s[:1]) + s[1:]
	}
	return err.Error()
}

// setNodeFile is --nodefile (-F): the nodes a file lists, as -w would
// name them; a file Slurm's reader refuses ends the command (exit 255).
func setNodeFile(b *builder, v value) error {
	names, err := readHostFile(v.str, b.p.Cwd)
	if err != nil {
		return &Error{Code: ExitClient, Lines: []string{b.p.prog() + ": error: " + err.Error(), b.p.prog() + ": error: Invalid --nodefile node file"}}
	}
	b.req.NodeList = hostlist.Compress(names)
	return nil
}
