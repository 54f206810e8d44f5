package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestSacctLists: the lists sacct sends, read as Slurm 22.05's sacct
// (src/sacct/options.c) reads each option: -A, -r and --name with
// slurm_addto_char_list (addCharList), -s, -u and -j with
// slurm_parse_char_list (parseCharList) and their own conversions. The
// accounting peer is not running: the expectations follow the source.
func TestSacctLists(t *testing.T) {
	const now = 1795953600
	cases := map[string]struct {
		args []string
		want api.AcctQuery // the lists only
	}{
		"accounts lowercased, once, the repeat last": {
			args: []string{"-A", "NLP,Vision", "-A", "nlp"}, want: api.AcctQuery{Accounts: []string{"vision", "nlp"}}},
		"names: quotes dropped, the comma still splits": {
			args: []string{"--name", `"Train,Eval"`}, want: api.AcctQuery{Names: []string{"train", "eval"}}},
		"names: empty items dropped": {
			args: []string{"--name", ",a,,b,"}, want: api.AcctQuery{Names: []string{"a", "b"}}},
		"name '' is the empty name": {
			args: []string{"--name", ""}, want: api.AcctQuery{Names: []string{""}}},
		"partitions: a host list range": {
			args: []string{"-r", "gpu[1-2],CPU"}, want: api.AcctQuery{Partitions: []string{"gpu1", "gpu2", "cpu"}}},
		"states: names and codes in any case, each once": {
			args: []string{"-s", "r,CD,running", "-s", "'pd'"}, want: api.AcctQuery{States: []string{"RUNNING", "COMPLETED", "PENDING"}}},
		"states: the ones sacct accounts besides the end states": {
			args: []string{"-s", "RQ,resizing,RV,oom"}, want: api.AcctQuery{States: []string{"REQUEUED", "RESIZING", "REVOKED", "OUT_OF_MEMORY"}}},
		"users: each once": {
			args: []string{"-u", "alice,1000,root"}, want: api.AcctQuery{Users: []string{"1000", "0"}}},
		"jobs: a quoted list": {
			args: []string{"-j", `"12,13"`}, want: api.AcctQuery{JobIDs: []string{"12", "13"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{}
			te := newTestEnv(f, now)
			if code := Sacct(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			q := f.acctQs[0]
			got := api.AcctQuery{Accounts: q.Accounts, Names: q.Names, Partitions: q.Partitions, States: q.States,
				Users: q.Users, JobIDs: q.JobIDs}
			if tc.want.Users == nil {
				got.Users = nil // root's default: every user
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("lists (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSacctListErrors: what the peer's sacct printed for these values
// (its option parsing runs before it finds no accounting storage), and,
// for -q, what slurmdb_addto_qos_char_list prints.
func TestSacctListErrors(t *testing.T) {
	cases := map[string]struct {
		args    []string
		wantErr string
	}{
		"unknown state":         {[]string{"-s", "r,foo"}, "sacct: fatal: unrecognized job state value 'foo'\n"},
		"a blank is kept":       {[]string{"-s", " r"}, "sacct: fatal: unrecognized job state value ' r'\n"},
		"a state not accounted": {[]string{"-s", "cg"}, "sacct: fatal: job state cg is not supported / accounted\n"},
		"special exit":          {[]string{"-s", "SE"}, "sacct: fatal: job state SE is not supported / accounted\n"},
		"no such user":          {[]string{"-u", "alice,nosuch"}, "sacct: error: Invalid user id: nosuch\n"},
		// slurm_addto_id_char_list added no user: sacct ends silently.
		"empty user list":     {[]string{"-u", ""}, ""},
		"only commas":         {[]string{"-u", ","}, ""},
		"the same user again": {[]string{"-u", "alice", "-u", "alice"}, ""},
		"bad job in quotes":   {[]string{"-j", `"12,abc"`}, "sacct: fatal: Bad job/step specified: abc\n"},
		"no such group":       {[]string{"-g", "0,nosuch"}, "sacct: error: Invalid group id: nosuch\n"},
		"empty group list":    {[]string{"-g", ""}, ""},
		"empty qos list": {[]string{"-q", ","},
			"sacct: error: You gave me an empty qos list\nsacct: fatal: problem processing qos list\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(&fakeController{}, 1795953600)
			if code := Sacct(context.Background(), te.Env, tc.args); code != 1 {
				t.Errorf("exit = %d, want 1", code)
			}
			if diff := cmp.Diff(tc.wantErr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSacctNodesOnce: a second -N is refused with the peer's error and
// the first list stays.
func TestSacctNodesOnce(t *testing.T) {
	f := &fakeController{}
	te := newTestEnv(f, 1795953600)
	if code := Sacct(context.Background(), te.Env, []string{"-N", "cpu001", "-N", "cpu002"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	if got := te.stderr.String(); got != "sacct: error: Already asked for nodes 'cpu001'\n" {
		t.Errorf("stderr %q", got)
	}
	if got := f.acctQs[0].Nodes; !cmp.Equal(got, []string{"cpu001"}) {
		t.Errorf("nodes %q, want [cpu001]", got)
	}
}

// TestSacctGroups: -g selects jobs by group, each group once, and leaves
// the users alone (root sees everyone's).
func TestSacctGroups(t *testing.T) {
	jobs := acctJobs()[:2]
	jobs[0].GroupID, jobs[1].GroupID = 0, 100
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-g", "100"}, "13\n"},
		{[]string{"-g", `"0,100"`}, "12\n13\n"},
		{[]string{"-g", "7"}, ""},
	} {
		te := newTestEnv(&fakeController{acct: jobs}, 1795950000)
		args := append([]string{"-X", "-n", "-P", "-o", "jobid"}, tc.args...)
		if code := Sacct(context.Background(), te.Env, args); code != 0 || te.stdout.String() != tc.want {
			t.Errorf("sacct %q: exit %d, %q (%s), want %q", tc.args, code, te.stdout, te.stderr, tc.want)
		}
	}
}

// TestSacctQOS: -q names match without case (Slurm looks them up
// without case and compares ids); the last -q replaces the others.
func TestSacctQOS(t *testing.T) {
	jobs := acctJobs()[:2]
	jobs[0].QOS, jobs[1].QOS = "normal", "High"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-q", "NORMAL"}, "12\n"},
		{[]string{"-q", `"high,normal"`}, "12\n13\n"},
		{[]string{"-q", "normal", "-q", "high"}, "13\n"},
		{[]string{"-q", ""}, ""},
	} {
		te := newTestEnv(&fakeController{acct: jobs}, 1795950000)
		args := append([]string{"-X", "-n", "-P", "-o", "jobid"}, tc.args...)
		if code := Sacct(context.Background(), te.Env, args); code != 0 || te.stdout.String() != tc.want {
			t.Errorf("sacct %q: exit %d, %q (%s), want %q", tc.args, code, te.stdout, te.stderr, tc.want)
		}
	}
}
