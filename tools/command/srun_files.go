package command

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"github.com/loamhpc/loam/pkg/api"
)

// patternLetters finds the letters of a file name pattern's '%' fields.
var patternLetters = regexp.MustCompile(`%[0-9]*(.)`)

// srunLocal reports whether Slurm's srun opens a -i, -o or -e file itself:
// a name, not all, none or a task id, whose fields srun knows (%j, %%),
// none of them per node or task.
func srunLocal(pattern string, ntasks int) bool {
	if pattern == "" || srunFileName(pattern, ntasks) == "" || pattern == "none" || pattern == "-" || strings.Contains(pattern, `\`) {
		return false
	}
	for _, m := range patternLetters.FindAllStringSubmatch(pattern, -1) {
		if m[1] != "j" && m[1] != "%" {
			return false
		}
	}
	return true
}

// stdioError checks the files of the step's -i, -o and -e that Slurm's
// srun opens itself: an input file that cannot be read, or an output
// file whose directory is not there, stops srun with Slurm's words ("srun:
// error: Could not open stdin file: No such file or directory") rather
// than failing every task on its node. The nodes still open the files.
func (r *srunRun) stdioError() string {
	st := &r.res.Step
	dir := r.res.Request.WorkDir
	if dir == "" {
		dir = r.env.Cwd
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "" // the tasks run in /tmp: the nodes say so
	}
	path := func(p string) string {
		p = api.ExpandStdio(p, api.StdioVars{JobID: r.jobID})
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		return p
	}
	if srunLocal(st.Input, r.res.Request.NTasks) {
		f, err := os.Open(path(st.Input))
		if err != nil {
			return "Could not open stdin file: " + cStrerror(err)
		}
		f.Close()
	}
	for _, o := range []struct{ pattern, stream string }{{st.Output, "stdout"}, {st.Error, "stderr"}} {
		if !srunLocal(o.pattern, r.res.Request.NTasks) {
			continue
		}
		p := path(o.pattern)
		if fi, err := os.Stat(filepath.Dir(p)); err != nil || !fi.IsDir() {
			if err == nil {
				err = syscall.ENOTDIR
			}
			return "Could not open " + o.stream + " file: " + cStrerror(err)
		}
	}
	return ""
}

// cStrerror is the C library's text for err's errno ("No such file or
// directory").
func cStrerror(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	s := errno.Error()
	return strings.ToUpper(s[:1]) + s[1:]
}
