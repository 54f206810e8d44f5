package jobopt

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExportFile: --export-file's variables replace sbatch's environment
// as the peer showed (env of jobs submitted with a file of FOO, PATH,
// HOSTNAME, SLURM_SUBMIT_DIR, a value with a new line and an unterminated
// last entry): the submitter's variables and those the options set
// (SLURM_JOB_NAME, SLURM_EXPORT_ENV) are gone, HOSTNAME is dropped, the
// file's SLURM_SUBMIT_DIR stays, --export=NONE drops the file.
func TestExportFile(t *testing.T) {
	env := []string{"HOME=/home/u", "FOO=1", "SLURM_PRIO_PROCESS=0", "SLURM_UMASK=0022"}
	file := "FOO=bar\x00PATH=/usr/bin:/bin\x00HOSTNAME=x\x00SLURM_SUBMIT_DIR=/nowhere\x00WITH_NL=a\nb\x00LAST=noterm"
	tests := map[string]struct {
		args []string
		file string
		want []string
	}{
		"the file replaces the environment": {args: []string{"-J", "x", "-n2"}, file: file, want: []string{
			"FOO=bar", "PATH=/usr/bin:/bin", "SLURM_SUBMIT_DIR=/nowhere", "WITH_NL=a\nb", "LAST=noterm",
			"SLURM_PRIO_PROCESS=0", "SLURM_UMASK=0022", "SLURM_SUBMIT_HOST=login1", "SLURM_NPROCS=2", "SLURM_NTASKS=2"}},
		"a list adds to the file": {args: []string{"--export=XX=1"}, file: file, want: []string{
			"FOO=bar", "PATH=/usr/bin:/bin", "SLURM_SUBMIT_DIR=/nowhere", "WITH_NL=a\nb", "LAST=noterm",
			"XX=1", "SLURM_PRIO_PROCESS=0", "SLURM_UMASK=0022", "SLURM_GET_USER_ENV=1", "SLURM_SUBMIT_HOST=login1"}},
		"NONE drops the file": {args: []string{"--export=NONE"}, file: file, want: []string{
			"SLURM_PRIO_PROCESS=0", "SLURM_UMASK=0022", "SLURM_GET_USER_ENV=1", "SLURM_SUBMIT_HOST=login1"}},
		"an empty entry ends the file": {file: "A=1\x00\x00B=2\x00", want: []string{
			"A=1", "SLURM_PRIO_PROCESS=0", "SLURM_UMASK=0022", "SLURM_SUBMIT_DIR=/home/u", "SLURM_SUBMIT_HOST=login1"}},
		"entries without a value are skipped": {file: "NOVALUE\x00A=1=2\x00", want: []string{
			"A=1=2", "SLURM_PRIO_PROCESS=0", "SLURM_UMASK=0022", "SLURM_SUBMIT_DIR=/home/u", "SLURM_SUBMIT_HOST=login1"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Env: env, Cwd: "/home/u", Now: testNow, Host: "login1", ReadFile: func(name string) ([]byte, error) {
				if name != "/home/u/env.bin" {
					return nil, fs.ErrNotExist
				}
				return []byte(tc.file), nil
			}}
			cl, err := p.CommandLine(append(tc.args, "--export-file=env.bin", "job.sh"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Submission(cl, []byte("#!/bin/sh\n"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, res.Request.Environment); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if len(res.Warnings) != 0 {
				t.Errorf("warnings %q", res.Warnings)
			}
		})
	}
}

// TestExportFileMissing: the peer's sbatch --export-file=/nonexistent
// prints "Could not open user environment file /nonexistent", exit 1.
func TestExportFileMissing(t *testing.T) {
	p := &Parser{Cwd: "/home/u", Now: testNow, ReadFile: func(string) ([]byte, error) { return nil, fs.ErrNotExist }}
	cl, err := p.CommandLine([]string{"--export-file=/nonexistent", "job.sh"})
	if err == nil {
		_, err = p.Submission(cl, []byte("#!/bin/sh\n"))
	}
	var e *Error
	if !errors.As(err, &e) || e.Code != 1 || !cmp.Equal(e.Lines, []string{"sbatch: error: Could not open user environment file /nonexistent"}) {
		t.Errorf("err = %v, want exit 1 and Slurm's line", err)
	}
}

// FuzzExportFile: any --export-file content is read without a panic into
// NAME=value entries with distinct names, none of the node's own.
func FuzzExportFile(f *testing.F) {
	for _, s := range []string{"FOO=bar\x00PATH=/bin\x00", "A=1\x00\x00B=2", "NOVALUE\x00X=a\nb", "HOSTNAME=x\x00DISPLAY=:0", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		seen := map[string]bool{}
		for _, kv := range exportFileEntries(data) {
			name, _, ok := strings.Cut(kv, "=")
			if !ok || strings.Contains(kv, "\x00") || seen[name] || len(name) >= 256 {
				t.Fatalf("bad entry %q in %q", kv, data)
			}
			if name == "DISPLAY" || name == "ENVIRONMENT" || name == "HOSTNAME" {
				t.Fatalf("the node's own %s kept", name)
			}
			seen[name] = true
		}
	})
}
