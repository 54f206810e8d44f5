package controller

import (
	"io/fs"
	"syscall"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// fakeFile is one entry of a fake file system: owner, group and mode.
type fakeFile struct {
	uid, gid uint32
	mode     fs.FileMode
}

func (f fakeFile) info(name string) fs.FileInfo { return fakeInfo{name: name, f: f} }

type fakeInfo struct {
	name string
	f    fakeFile
}

func (i fakeInfo) Name() string       { return i.name }
func (i fakeInfo) Size() int64        { return 0 }
func (i fakeInfo) Mode() fs.FileMode  { return i.f.mode }
func (i fakeInfo) ModTime() time.Time { return time.Time{} }
func (i fakeInfo) IsDir() bool        { return i.f.mode.IsDir() }
func (i fakeInfo) Sys() any           { return &syscall.Stat_t{Uid: i.f.uid, Gid: i.f.gid} }

// fakeFS stats from a map; "/nfs/squashed" answers EACCES as a
// root-squashed mount does.
func fakeFS(files map[string]fakeFile) statFunc {
	return func(p string) (fs.FileInfo, error) {
		if p == "/nfs/squashed" {
			return nil, &fs.PathError{Op: "stat", Path: p, Err: syscall.EACCES}
		}
		f, ok := files[p]
		if !ok {
			return nil, &fs.PathError{Op: "stat", Path: p, Err: fs.ErrNotExist}
		}
		return f.info(p), nil
	}
}

func TestCheckPaths(t *testing.T) {
	dir := func(uid, gid uint32, perm fs.FileMode) fakeFile { return fakeFile{uid, gid, fs.ModeDir | perm} }
	file := func(uid, gid uint32, perm fs.FileMode) fakeFile { return fakeFile{uid, gid, perm} }
	stat := fakeFS(map[string]fakeFile{
		"/":                   dir(0, 0, 0o755),
		"/home":               dir(0, 0, 0o755),
		"/home/alice":         dir(1000, 1000, 0o700),
		"/home/alice/out":     dir(1000, 1000, 0o755),
		"/home/alice/ro":      dir(1000, 1000, 0o555),
		"/home/alice/run.sh":  file(1000, 1000, 0o644),
		"/home/alice/locked":  file(1000, 1000, 0o000),
		"/home/bob":           dir(1001, 1001, 0o700),
		"/home/bob/data":      file(1001, 1001, 0o644),
		"/shared":             dir(0, 2000, 0o770),
		"/shared/set":         file(0, 2000, 0o640),
		"/tmp":                dir(0, 0, 0o1777),
		"/nfs":                dir(0, 0, 0o755),
		"/home/alice/old.out": file(1000, 1000, 0o444),
	})
	tests := map[string]struct {
		mod      func(r *job.Request)
		groups   []uint32
		wantCode api.Code
	}{
		"a job in its own home directory is fine": {},
		"a missing working directory is refused": {
			mod: func(r *job.Request) { r.WorkDir = "/home/alice/nosuch" }, wantCode: api.CodeWorkDirUnusable},
		"another user's home is refused like a missing one": {
			mod: func(r *job.Request) { r.WorkDir = "/home/bob" }, wantCode: api.CodeWorkDirUnusable},
		"an output directory that does not exist is refused": {
			mod: func(r *job.Request) { r.StdOut = "/home/alice/nodir/slurm-%j.out" }, wantCode: api.CodeOutputDirMissing},
		"a read-only output directory is refused": {
			mod: func(r *job.Request) { r.StdErr = "/home/alice/ro/err" }, wantCode: api.CodeOutputDirMissing},
		"an existing output file the user cannot write is refused": {
			mod: func(r *job.Request) { r.StdOut = "/home/alice/old.out" }, wantCode: api.CodeOutputDirMissing},
		"an output directory given by a pattern is left to the start": {
			mod: func(r *job.Request) { r.StdOut = "/home/alice/%u/out" }},
		"a script the user cannot read is refused": {
			mod: func(r *job.Request) { r.Argv = []string{"/home/alice/locked"} }, wantCode: api.CodeScriptUnreadable},
		"a relative script path is read from the submit directory": {
			mod: func(r *job.Request) { r.Argv = []string{"run.sh"}; r.SubmitDir = "/home/alice" }},
		"a data path behind another user's directory is refused": {
			mod: func(r *job.Request) { r.DataPaths = []string{"/home/bob/data"} }, wantCode: api.CodeDataPathUnusable},
		"a data path readable through a supplementary group is fine": {
			mod: func(r *job.Request) { r.DataPaths = []string{"/shared/set"} }, groups: []uint32{2000}},
		"the same path without the group is refused": {
			mod: func(r *job.Request) { r.DataPaths = []string{"/shared/set"} }, wantCode: api.CodeDataPathUnusable},
		"a path the controller itself may not stat is not refused": {
			mod: func(r *job.Request) { r.DataPaths = []string{"/nfs/squashed/x"} }},
		"a missing input file is refused": {
			mod: func(r *job.Request) { r.StdIn = "/home/alice/in.txt" }, wantCode: api.CodeDataPathUnusable},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := job.Request{UserID: 1000, GroupID: 1000, UserName: "alice", WorkDir: "/home/alice",
				StdOut: "/home/alice/out/slurm-%j.out"}
			if tc.mod != nil {
				tc.mod(&r)
			}
			err := checkPaths(&admitted{req: &r, groups: tc.groups}, stat)
			var got api.Code
			if err != nil {
				got = err.Code
			}
			if got != tc.wantCode {
				t.Errorf("code %q, want %q (%v)", got, tc.wantCode, err)
			}
		})
	}
}

// TestRootPassesPermissionsNotExistence: root reaches everything but a
// missing directory is still refused.
func TestRootPassesPermissionsNotExistence(t *testing.T) {
	stat := fakeFS(map[string]fakeFile{"/": {0, 0, fs.ModeDir | 0o755}, "/home": {0, 0, fs.ModeDir | 0o700}})
	r := job.Request{UserName: "root", WorkDir: "/home"}
	if err := checkPaths(&admitted{req: &r}, stat); err != nil {
		t.Errorf("root in a 0700 directory: %v", err)
	}
	r.WorkDir = "/nosuch"
	if err := checkPaths(&admitted{req: &r}, stat); err == nil || err.Code != api.CodeWorkDirUnusable {
		t.Errorf("root in a missing directory: %v", err)
	}
}
