package controller

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/loamhpc/loam/pkg/api"
)

// The path checks run as the submitting user would see the file system,
// although the controller is root: every directory on the way must be
// searchable by the user's uid, gid or groups (mode bits; ACLs are not
// read), and the last component must allow what the job will do with it.
// A path the user cannot reach gets the same answer as one that does not
// exist, so a check never tells a user about paths it cannot see. A path
// the controller itself cannot stat for another reason than absence (a
// root-squashed network file system, an I/O error) is not refused: the
// check is then inconclusive and the node daemon reports any failure at
// start. Paths are checked on the controller's host, which must mount the
// shared file systems the jobs use.

// statFunc is os.Stat, replaceable in tests.
type statFunc func(path string) (fs.FileInfo, error)

func statPath(path string) (fs.FileInfo, error) { return os.Stat(path) }

// access is what a job needs of a path.
type access uint32

const (
	accRead   access = 4
	accWrite  access = 2
	accSearch access = 1
)

// pathUser is who the job runs as.
type pathUser struct {
	uid, gid uint32
	groups   []uint32
}

// verdict of one path check.
type verdict int

const (
	pathOK verdict = iota
	pathRefused
	pathUnknown
)

// may reports whether u may access fi as want, by its mode bits. Root may
// read and write anything and search any directory.
func (u pathUser) may(fi fs.FileInfo, want access) bool {
	if u.uid == 0 {
		return true
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return true // no owner information: do not refuse
	}
	mode := uint32(fi.Mode().Perm())
	var bits uint32
	switch {
	case st.Uid == u.uid:
		bits = mode >> 6
	case st.Gid == u.gid || slices.Contains(u.groups, st.Gid):
		bits = mode >> 3
	default:
		bits = mode
	}
	return access(bits&7)&want == want
}

// check walks path from the root: every directory must be searchable, the
// last component must exist, be a directory when dir is set, and allow
// want.
func (u pathUser) check(stat statFunc, path string, dir bool, want access) verdict {
	path = filepath.Clean(path)
	if !filepath.IsAbs(path) {
		return pathUnknown
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	cur := "/"
	for i, p := range append([]string{""}, parts...) {
		if p != "" {
			cur = filepath.Join(cur, p)
		}
		fi, err := stat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			return pathRefused
		case err != nil:
			return pathUnknown
		}
		last := i == len(parts)
		if !last {
			if !fi.IsDir() || !u.may(fi, accSearch) {
				return pathRefused
			}
			continue
		}
		if dir && !fi.IsDir() || !u.may(fi, want) {
			return pathRefused
		}
	}
	return pathOK
}

// checkPaths refuses a job whose working directory, output and error
// directories, input file, script or --data paths the user cannot use.
func checkPaths(a *admitted, stat statFunc) *api.Error {
	r := a.req
	u := pathUser{uid: r.UserID, gid: r.GroupID, groups: a.groups}
	if u.check(stat, r.WorkDir, true, accSearch) == pathRefused {
		return api.Errorf(api.CodeWorkDirUnusable, "working directory %s does not exist or user %s cannot enter it", r.WorkDir, r.UserName)
	}
	for _, out := range []string{r.StdOut, r.StdErr} {
		if err := checkOutput(u, stat, out, r.UserName); err != nil {
			return err
		}
	}
	if in := r.StdIn; in != "" && in != "/dev/null" && !strings.ContainsAny(in, `%\`) &&
		u.check(stat, in, false, accRead) == pathRefused {
		return api.Errorf(api.CodeDataPathUnusable, "input file %s does not exist or user %s cannot read it", in, r.UserName)
	}
	if len(r.Argv) > 0 && r.Argv[0] != "" {
		script := r.Argv[0]
		if !filepath.IsAbs(script) {
			script = filepath.Join(r.SubmitDir, script)
		}
		if u.check(stat, script, false, accRead) == pathRefused {
			return api.Errorf(api.CodeScriptUnreadable, "batch script %s does not exist or user %s cannot read it", r.Argv[0], r.UserName)
		}
	}
	for _, p := range r.DataPaths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.WorkDir, p)
		}
		if dataPathVerdict(u, stat, p) == pathRefused {
			return api.Errorf(api.CodeDataPathUnusable, "data path %s does not exist or user %s cannot read it", p, r.UserName)
		}
	}
	return nil
}

// checkOutput checks an output file pattern: its directory must let the
// user create files, and the file, when it exists, must be writable. A
// directory that holds a pattern (%u, %j...) is known only when the job
// starts and is not checked.
func checkOutput(u pathUser, stat statFunc, pattern, user string) *api.Error {
	if pattern == "" || pattern == "/dev/null" {
		return nil
	}
	dir := filepath.Dir(pattern)
	if strings.ContainsAny(dir, `%\`) {
		return nil
	}
	if u.check(stat, dir, true, accWrite|accSearch) == pathRefused {
		return api.Errorf(api.CodeOutputDirMissing, "output directory %s does not exist or user %s cannot write in it", dir, user)
	}
	if strings.ContainsAny(pattern, `%\`) {
		return nil
	}
	if fi, err := stat(pattern); err == nil && !fi.IsDir() && !u.may(fi, accWrite) {
		return api.Errorf(api.CodeOutputDirMissing, "output file %s is not writable by user %s", pattern, user)
	}
	return nil
}

// dataPathVerdict checks a --data path: a readable file, or a directory
// the user may list and enter.
func dataPathVerdict(u pathUser, stat statFunc, p string) verdict {
	v := u.check(stat, p, false, accRead)
	if v != pathOK {
		return v
	}
	if fi, err := stat(p); err == nil && fi.IsDir() && !u.may(fi, accRead|accSearch) {
		return pathRefused
	}
	return pathOK
}
