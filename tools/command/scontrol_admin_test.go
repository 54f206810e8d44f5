package command

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// adminFake answers write batch_script for job 12 (a batch job), 13 (an
// allocation without a script) and 14 (another user's); setdebug and
// shutdown as a controller does for root, or refuses them (denied).
type adminFake struct {
	*fakeController
	denied    bool
	debugs    []api.SetDebugRequest
	shutdowns []api.ShutdownRequest
}

func (f *adminFake) JobScript(_ context.Context, req *api.JobScriptRequest) (*api.JobScriptResponse, error) {
	switch req.JobID {
	case 12:
		return &api.JobScriptResponse{Script: "#!/bin/sh\n# This script was created by sbatch --wrap.\n\nsleep 120\n"}, nil
	case 13:
		return nil, api.NewError(api.CodeScriptMissing)
	case 14:
		return nil, api.NewError(api.CodeUserIDMissing)
	}
	return nil, api.NewError(api.CodeInvalidJobID)
}

func (f *adminFake) SetDebug(_ context.Context, req *api.SetDebugRequest) (*api.SetDebugResponse, error) {
	f.debugs = append(f.debugs, *req)
	if f.denied {
		return nil, api.NewError(api.CodeAccessDenied)
	}
	return &api.SetDebugResponse{Level: "info"}, nil
}

func (f *adminFake) Shutdown(_ context.Context, req *api.ShutdownRequest) (*api.ShutdownResponse, error) {
	f.shutdowns = append(f.shutdowns, *req)
	if f.denied {
		return nil, api.NewError(api.CodeUserIDMissing)
	}
	return &api.ShutdownResponse{}, nil
}

// runAdmin runs scontrol in dir against f.
func runAdmin(f *adminFake, dir string, args ...string) (int, string, string) {
	te := newTestEnv(f.fakeController, 1795950000)
	te.Cwd = dir
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	code := Scontrol(context.Background(), te.Env, args)
	return code, te.stdout.String(), te.stderr.String()
}

const peerScript = "#!/bin/sh\n# This script was created by sbatch --wrap.\n\nsleep 120\n"

// TestScontrolWriteBatchScript: the peer's messages and statuses
// (testdata/peer/scontrol-admin.txt); failures to get or write the
// script leave the status 0, as scontrol's.
func TestScontrolWriteBatchScript(t *testing.T) {
	tests := map[string]struct {
		args                   []string
		code                   int
		stdout, stderr         string
		wantFile, wantFileBody string
	}{
		"default file": {args: []string{"write", "batch_script", "12"},
			stdout: "batch script for job 12 written to slurm-12.sh\n", wantFile: "slurm-12.sh", wantFileBody: peerScript},
		"named file": {args: []string{"write", "batch_script", "12", "foo.sh"},
			stdout: "batch script for job 12 written to foo.sh\n", wantFile: "foo.sh", wantFileBody: peerScript},
		"standard output":   {args: []string{"write", "batch_script", "12", "-"}, stdout: peerScript},
		"abbreviated":       {args: []string{"write", "batch_scr", "12", "-"}, stdout: peerScript},
		"unknown job":       {args: []string{"write", "batch_script", "9999999"}, stderr: "job script retrieval failed: Invalid job id specified\n"},
		"not a number":      {args: []string{"write", "batch_script", "x"}, stderr: "job script retrieval failed: Invalid job id specified\n"},
		"no batch script":   {args: []string{"write", "batch_script", "13"}, stderr: "job script retrieval failed: Job script not specified\n"},
		"another user's":    {args: []string{"write", "batch_script", "14", "-"}, stderr: "job script retrieval failed: Invalid user id\n"},
		"no job id":         {args: []string{"write", "batch_script"}},
		"missing directory": {args: []string{"write", "batch_script", "12", "/nonexistent/x"}, stderr: "failed to open file `/nonexistent/x`: No such file or directory\n"},
		"too many":          {args: []string{"write", "batch_script", "12", "a", "b"}, code: 1, stderr: "too many arguments for keyword:write\n"},
		"too few":           {args: []string{"write"}, code: 1, stderr: "too few arguments for keyword:write\n"},
		"bad argument":      {args: []string{"write", "foo", "12"}, code: 1, stderr: "invalid write argument:foo\n"},
		"too short":         {args: []string{"write", "b", "12", "-"}, code: 1, stderr: "invalid write argument:b\n"},
		"wr is no keyword":  {args: []string{"wr", "batch_script", "12"}, code: 1, stderr: "invalid keyword: wr\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			code, stdout, stderr := runAdmin(&adminFake{fakeController: &fakeController{}}, dir, tc.args...)
			got := []any{code, stdout, stderr}
			if diff := cmp.Diff([]any{tc.code, tc.stdout, tc.stderr}, got); diff != "" {
				t.Errorf("scontrol %q (-want +got):\n%s", tc.args, diff)
			}
			if tc.wantFile == "" {
				return
			}
			b, err := os.ReadFile(filepath.Join(dir, tc.wantFile))
			if err != nil || string(b) != tc.wantFileBody {
				t.Errorf("%s = %q, %v; want %q", tc.wantFile, b, err, tc.wantFileBody)
			}
		})
	}
}

// TestScontrolSetDebugAndShutdown: argument checks before anything is
// sent, and the peer's words for a refusal.
func TestScontrolSetDebugAndShutdown(t *testing.T) {
	tests := map[string]struct {
		args          []string
		denied        bool
		code          int
		stderr        string
		wantDebug     []api.SetDebugRequest
		wantShutdowns []api.ShutdownRequest
	}{
		"level by name":       {args: []string{"setdebug", "debug2"}, wantDebug: []api.SetDebugRequest{{Level: "debug2"}}},
		"level by number":     {args: []string{"setdebug", "3"}, wantDebug: []api.SetDebugRequest{{Level: "3"}}},
		"upper case":          {args: []string{"setd", "INFO"}, wantDebug: []api.SetDebugRequest{{Level: "INFO"}}},
		"bad level":           {args: []string{"setdebug", "bogus"}, code: 1, stderr: "invalid debug level: bogus\n"},
		"level out of range":  {args: []string{"setdebug", "10"}, code: 1, stderr: "invalid debug level: 10\n"},
		"warning is no level": {args: []string{"setdebug", "warning"}, code: 1, stderr: "invalid debug level: warning\n"},
		"no level":            {args: []string{"setdebug"}, code: 1, stderr: "too few arguments for keyword:setdebug\n"},
		"two levels":          {args: []string{"setdebug", "info", "x"}, code: 1, stderr: "too many arguments for keyword:setdebug\n"},
		"not root":            {args: []string{"setdebug", "info"}, denied: true, code: 1, stderr: "slurm_set_debug_level error: Permission denied\n", wantDebug: []api.SetDebugRequest{{Level: "info"}}},
		"add a flag":          {args: []string{"setdebugflags", "+Backfill"}, wantDebug: []api.SetDebugRequest{{Flags: []string{"+Backfill"}}}},
		"remove a flag":       {args: []string{"setdebugflags", "-backfill"}, wantDebug: []api.SetDebugRequest{{Flags: []string{"-backfill"}}}},
		"flag without sign":   {args: []string{"setdebugflags", "Backfill"}, code: 1, stderr: "invalid debug flag: Backfill\nUsage: setdebugflags [+|-]NAME\n"},
		"unknown flag":        {args: []string{"setdebugflags", "-foo"}, code: 1, stderr: "scontrol: error: Invalid DebugFlag: foo\ninvalid debug flag: -foo\n"},
		"options before":      {args: []string{"-Q", "setdebugflags", "-Backfill"}, wantDebug: []api.SetDebugRequest{{Flags: []string{"-Backfill"}}}},
		"no flag":             {args: []string{"setdebugflags"}, code: 1, stderr: "too few arguments for keyword:setdebugflags\n"},
		"a database flag":     {args: []string{"setdebugflags", "+DB_Job"}, wantDebug: []api.SetDebugRequest{{Flags: []string{"+DB_Job"}}}},
		"an alias":            {args: []string{"setdebugflags", "+trigger"}, wantDebug: []api.SetDebugRequest{{Flags: []string{"+trigger"}}}},
		"JobComp is no flag":  {args: []string{"setdebugflags", "+JobComp"}, code: 1, stderr: "scontrol: error: Invalid DebugFlag: JobComp\ninvalid debug flag: +JobComp\n"},
		"flags not root":      {args: []string{"setdebugflags", "+Backfill"}, denied: true, code: 1, stderr: "slurm_set_debug_flags error: Permission denied\n", wantDebug: []api.SetDebugRequest{{Flags: []string{"+Backfill"}}}},
		"shutdown all":        {args: []string{"shutdown"}, wantShutdowns: []api.ShutdownRequest{{}}},
		"shutdown slurmctld":  {args: []string{"shutdown", "slurmctld"}, wantShutdowns: []api.ShutdownRequest{{ControllerOnly: true}}},
		"shutdown controller": {args: []string{"shutdown", "controller"}, wantShutdowns: []api.ShutdownRequest{{ControllerOnly: true}}},
		"shutdown bad":        {args: []string{"shutdown", "x"}, code: 1, stderr: "invalid shutdown argument:x\n"},
		"shut is no keyword":  {args: []string{"shut"}, code: 1, stderr: "invalid keyword: shut\n"},
		"shutdown not root":   {args: []string{"shutdown"}, denied: true, code: 1, stderr: "slurm_shutdown error: Invalid user id\n", wantShutdowns: []api.ShutdownRequest{{}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &adminFake{fakeController: &fakeController{}, denied: tc.denied}
			code, stdout, stderr := runAdmin(f, t.TempDir(), tc.args...)
			if diff := cmp.Diff([]any{tc.code, "", tc.stderr}, []any{code, stdout, stderr}); diff != "" {
				t.Errorf("scontrol %q (-want +got):\n%s", tc.args, diff)
			}
			if diff := cmp.Diff(tc.wantDebug, f.debugs); diff != "" {
				t.Errorf("setdebug sent (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantShutdowns, f.shutdowns); diff != "" {
				t.Errorf("shutdown sent (-want +got):\n%s", diff)
			}
		})
	}
}

// TestScontrolWaitJob: the peer's lines for a running job, one not
// running, an unknown one and a bad id (printed without a newline).
func TestScontrolWaitJob(t *testing.T) {
	fc := &fakeController{jobs: []api.Job{
		{JobID: 20, JobState: job.Running}, {JobID: 21, JobState: job.Pending}, {JobID: 22, JobState: job.Completed},
	}}
	tests := map[string]struct {
		args   []string
		code   int
		stderr string
	}{
		"running":      {[]string{"wait_job", "20"}, 0, "scontrol: Nodes are ready for job 20\n"},
		"pending":      {[]string{"wait_job", "21"}, 1, "scontrol: Job 21 no longer running\n"},
		"ended":        {[]string{"wa", "22"}, 1, "scontrol: Job 22 no longer running\n"},
		"unknown":      {[]string{"wait_job", "99999999"}, 1, "scontrol: Problem running job 99999999\n"},
		"not a number": {[]string{"wait_job", "abc"}, 1, "Invalid job_id abc"},
		"no job":       {[]string{"wait_job"}, 1, "too few arguments for keyword:wait_job\n"},
		"two jobs":     {[]string{"wait_job", "20", "x"}, 1, "too many arguments for keyword:wait_job\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := scontrolWith(fc, fc, tc.args...)
			if diff := cmp.Diff([]any{tc.code, "", tc.stderr}, []any{code, stdout, stderr}); diff != "" {
				t.Errorf("scontrol %q (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}
