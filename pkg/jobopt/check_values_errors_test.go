package jobopt

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// parseAs runs one command's parser on args and returns its error.
func parseAs(p *Parser, cmd string, args ...string) error {
	var err error
	switch cmd {
	case "srun":
		_, err = p.Srun(args)
	case "salloc":
		_, err = p.Salloc(args)
	default:
		var cl *CommandLine
		if cl, err = p.CommandLine(args); err == nil {
			_, err = p.Submission(cl, []byte("#!/bin/sh\ntrue\n"))
		}
	}
	return err
}

func errorOf(t *testing.T, err error) (int, []string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v, want *Error", err)
	}
	return e.Code, e.Lines
}

// TestValueChecksOfIgnoredOptions: options Loam does not act on still
// refuse the values Slurm refuses, with the peer's words and status.
func TestValueChecksOfIgnoredOptions(t *testing.T) {
	tests := map[string]struct {
		cmd  string
		args []string
		code int
		want []string
	}{
		"threads-per-core 0": {"sbatch", []string{"--threads-per-core=0"}, 1,
			[]string{`sbatch: error: Invalid numeric value "0" for --threads-per-core.`}},
		"cores-per-socket text": {"srun", []string{"--cores-per-socket=1x", "true"}, 1,
			[]string{`srun: error: Invalid numeric value "1x" for --cores-per-socket.`}},
		"sockets-per-node 0": {"salloc", []string{"--sockets-per-node=0"}, 1,
			[]string{`salloc: error: Invalid numeric value "0" for --sockets-per-node.`}},
		"ntasks-per-core 0": {"sbatch", []string{"--ntasks-per-core=0"}, 1,
			[]string{`sbatch: error: Invalid numeric value "0" for --ntasks-per-core.`}},
		"-B first word": {"sbatch", []string{"-B", "x"}, 1,
			[]string{`sbatch: error: Invalid numeric value "x" for first arg of -B.`}},
		"-B second word": {"srun", []string{"-B", "1:x", "true"}, 1,
			[]string{`srun: error: Invalid numeric value "x" for second arg of -B.`}},
		"-B negative": {"sbatch", []string{"-B", "-1"}, 1,
			[]string{`sbatch: error: Invalid numeric value "-1" for first arg of -B.`}},
		"propagate name": {"sbatch", []string{"--propagate=CORE,FOO"}, 1,
			[]string{"sbatch: error: Bad rlimit name: FOO", "sbatch: error: --propagate=CORE,FOO is not valid."}},
		"propagate is upper case": {"srun", []string{"--propagate=rss", "true"}, 1,
			[]string{"srun: error: Bad rlimit name: rss", "srun: error: --propagate=rss is not valid."}},
		"hint": {"sbatch", []string{"--hint=compute_bound,foo"}, 1,
			[]string{`sbatch: error: unrecognized --hint argument "foo", see --hint=help`}},
		"mem-bind": {"salloc", []string{"--mem-bind=local,foo"}, 255,
			[]string{`salloc: error: unrecognized --mem-bind argument "foo"`}},
		"cpu-freq word": {"sbatch", []string{"--cpu-freq=foo-high"}, 255,
			[]string{`sbatch: error: unrecognized --cpu-freq argument "foo"`, "sbatch: error: Invalid --cpu-freq argument"}},
		"cpu-freq governor without max": {"srun", []string{"--cpu-freq=low:foo", "true"}, 255,
			[]string{"srun: error: gov on cpu-frec (foo) illegal without max", "srun: error: Invalid --cpu-freq argument"}},
		"wait-all-nodes negative": {"sbatch", []string{"--wait-all-nodes=-1"}, 1,
			[]string{`sbatch: error: Invalid numeric value "-1" for --wait-all-nodes.`}},
		"wait-all-nodes 2": {"sbatch", []string{"--wait-all-nodes=2"}, 255,
			[]string{"sbatch: error: Invalid --wait-all-nodes specification"}},
		"srun --jobid text": {"srun", []string{"--jobid=abc", "true"}, 1,
			[]string{`srun: error: Invalid numeric value "abc" for --jobid.`}},
		"srun --jobid with a step": {"srun", []string{"--jobid=12.3", "true"}, 1,
			[]string{`srun: error: Invalid numeric value "12.3" for --jobid.`}},
		"unknown uid":                  {"sbatch", []string{"--uid=nosuch"}, 255, []string{"sbatch: error: Invalid --uid specification"}},
		"unknown gid":                  {"srun", []string{"--gid=nosuch", "true"}, 255, []string{"srun: error: Invalid --gid specification"}},
		"profile without a known name": {"sbatch", []string{"--profile=foo"}, 255, []string{"sbatch: error: invalid --profile=foo option"}},
		"profile empty":                {"srun", []string{"--profile=", "true"}, 255, []string{"srun: error: invalid --profile= option"}},
		"gpu-freq word":                {"sbatch", []string{"--gpu-freq=Low"}, 255, []string{"sbatch: error: Invalid --gpu-freq argument: gpu:Low"}},
		"gpu-freq memory word":         {"salloc", []string{"--gpu-freq=high,memory=foo"}, 255, []string{"salloc: error: Invalid --gpu-freq argument: gpu:high,memory=foo"}},
		"gpu-freq negative":            {"srun", []string{"--gpu-freq=-5", "true"}, 255, []string{"srun: error: Invalid --gpu-freq argument: gpu:-5"}},
		"gpu-freq other type":          {"sbatch", []string{"--gpu-freq=core=low"}, 255, []string{"sbatch: error: Invalid --gpu-freq argument: gpu:core=low"}},
		"gpu-freq other TRES":          {"sbatch", []string{"--gpu-freq=low;nic:x"}, 255, []string{"sbatch: error: Invalid --gpu-freq argument: gpu:low;nic:x"}},
		"gpu-bind map letters":         {"sbatch", []string{"--gpu-bind=map_gpu:a"}, 255, []string{"sbatch: error: Invalid --gpu-bind argument: gpu:map_gpu:a"}},
		"gpu-bind mask letters":        {"salloc", []string{"--gpu-bind=mask_gpu:zz"}, 255, []string{"salloc: error: Invalid --gpu-bind argument: gpu:mask_gpu:zz"}},
		"gpu-bind negative":            {"srun", []string{"--gpu-bind=per_task:-1", "true"}, 255, []string{"srun: error: Invalid --gpu-bind argument: gpu:per_task:-1"}},
		"srun --msg-timeout 0":         {"srun", []string{"--msg-timeout=0", "true"}, 1, []string{`srun: error: Invalid numeric value "0" for --msg-timeout.`}},
		"srun --threads text":          {"srun", []string{"--threads=5x", "true"}, 1, []string{`srun: error: Invalid numeric value "5x" for --threads.`}},
		"srun --mincpus 0":             {"srun", []string{"--mincpus=0", "true"}, 1, []string{`srun: error: Invalid numeric value "0" for --mincpus.`}},
		"srun --resv-ports -1":         {"srun", []string{"--resv-ports=-1", "true"}, 1, []string{`srun: error: Invalid numeric value "-1" for --resv-port.`}},
		"srun --het-group range":       {"srun", []string{"--het-group=1,a", "true"}, 1, []string{"srun: error: _parse_single_range: Invalid range: `a'", "srun: error: Invalid --het-group value: 1,a"}},
		"srun --bbf missing":           {"srun", []string{"--bbf=/nonexistent", "true"}, 1, []string{"srun: error: Invalid --bbf specification"}},
		"salloc has no --cpu-bind": {"salloc", []string{"--cpu-bind=none"}, 255,
			[]string{"salloc: unrecognized option '--cpu-bind=none'", `Try "salloc --help" for more information`}},
		"salloc has no --propagate": {"salloc", []string{"--propagate"}, 255,
			[]string{"salloc: unrecognized option '--propagate'", `Try "salloc --help" for more information`}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Cwd: "/work", Now: testNow, Root: true,
				UserKnown: func(s string) bool { return s == "alice" }, GroupKnown: func(s string) bool { return s == "users" }}
			code, lines := errorOf(t, parseAs(p, tc.cmd, tc.args...))
			if diff := cmp.Diff([]any{tc.code, tc.want}, []any{code, lines}); diff != "" {
				t.Errorf("%s %v (-want +got):\n%s", tc.cmd, tc.args, diff)
			}
		})
	}
}

// TestValueChecksAcceptGoodValues: what the peer takes passes.
func TestValueChecksAcceptGoodValues(t *testing.T) {
	good := [][]string{
		{"--threads-per-core=1"}, {"-B", "*:1"}, {"-B", "1-2"}, {"-B", "1:2:3:4"},
		{"--propagate=RLIMIT_CORE"}, {"--propagate=ALL"}, {"--propagate=CORE,"}, {"--propagate"},
		{"--hint=COMPUTE_BOUND"}, {"--mem-bind=map_mem:0"}, {"--mem-bind=v,none"},
		{"--cpu-freq=performance"}, {"--cpu-freq=1000"}, {"--cpu-freq=low-high:ondemand"},
		{"--wait-all-nodes=1"}, {"--uid=alice"}, {"--gid=users"},
		{"--profile=task,foo"}, {"--profile=All"}, {"--profile=NONE"},
		{"--gpu-freq=high"}, {"--gpu-freq=1000"}, {"--gpu-freq=memory=low"}, {"--gpu-freq=verbose"}, {"--gpu-freq=highm1,verbose"}, {"--gpu-freq=,"},
		{"--gpu-freq=low;gpu:high"}, {"--gpu-freq=1000000000000000000"}, {"--gpu-bind=map_gpu:1*2"}, {"--gpu-bind=mask_gpu:0x3,f"},
	}
	for _, args := range good {
		p := &Parser{Cwd: "/work", Now: testNow, Root: true,
			UserKnown: func(s string) bool { return s == "alice" }, GroupKnown: func(s string) bool { return s == "users" }}
		if err := parseAs(p, "sbatch", args...); err != nil {
			t.Errorf("sbatch %v: %v", args, err)
		}
	}
}

// TestGetoptArgv0: the command line's getopt messages start with argv[0]
// as called; the hint names the command; #SBATCH lines are parsed as
// sbatch's own argv, "sbatch".
func TestGetoptArgv0(t *testing.T) {
	p := &Parser{Argv0: "/usr/bin/sbatch", Cwd: "/work", Now: testNow}
	_, lines := errorOf(t, parseAs(p, "sbatch", "--hold=1"))
	want := []string{"/usr/bin/sbatch: option '--hold' doesn't allow an argument", `Try "sbatch --help" for more information`}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("command line (-want +got):\n%s", diff)
	}
	cl, err := p.CommandLine(nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Submission(cl, []byte("#!/bin/sh\n#SBATCH --foo\ntrue\n"))
	_, lines = errorOf(t, err)
	want = []string{"sbatch: unrecognized option '--foo'", `Try "sbatch --help" for more information`}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("directive (-want +got):\n%s", diff)
	}
	s := &Parser{Prog: "srun", Argv0: "/usr/bin/srun", Cwd: "/work"}
	_, lines = errorOf(t, parseAs(s, "srun", "--foo"))
	want = []string{"/usr/bin/srun: unrecognized option '--foo'", `Try "srun --help" for more information`}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("srun (-want +got):\n%s", diff)
	}
}

// TestSrunSallocAmbiguousOrder: an ambiguous prefix lists srun's and
// salloc's options in Slurm's order (the peer's messages).
func TestSrunSallocAmbiguousOrder(t *testing.T) {
	tests := map[string]struct {
		cmd, arg, want string
	}{
		"srun --b":   {"srun", "--b", "'--bcast' '--bcast-exclude' '--begin' '--bb' '--bbf'"},
		"srun --c":   {"srun", "--c", "'--cluster-constraint' '--chdir' '--cluster' '--clusters' '--comment' '--compress' '--container' '--context' '--contiguous' '--constraint' '--core-spec' '--cores-per-socket' '--cpu-bind' '--cpu_bind' '--cpu-freq' '--cpus-per-gpu' '--cpus-per-task'"},
		"srun --t":   {"srun", "--t", "'--threads' '--task-epilog' '--task-prolog' '--tasks-per-node' '--test-only' '--thread-spec' '--threads-per-core' '--time' '--time-min' '--tmp'"},
		"srun --u":   {"srun", "--u", "'--uid' '--unbuffered' '--use-min-nodes' '--usage'"},
		"srun --p":   {"srun", "--p", "'--pack-group' '--partition' '--power' '--prefer' '--preserve-env' '--priority' '--profile' '--prolog' '--propagate' '--pty'"},
		"srun --w":   {"srun", "--w", "'--wait' '--wckey' '--whole'"},
		"salloc --b": {"salloc", "--b", "'--begin' '--bell' '--bb' '--bbf'"},
		"salloc --n": {"salloc", "--n", "'--network' '--nice' '--no-bell' '--no-kill' '--no-shell' '--nodefile' '--nodelist' '--nodes' '--ntasks' '--ntasks-per-core' '--ntasks-per-gpu' '--ntasks-per-node' '--ntasks-per-socket' '--ntasks-per-tres'"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, lines := errorOf(t, parseAs(&Parser{Prog: tc.cmd, Cwd: "/work"}, tc.cmd, tc.arg, "true"))
			want := tc.cmd + ": option '" + tc.arg + "' is ambiguous; possibilities: " + tc.want
			if diff := cmp.Diff(want, lines[0]); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSrunCompressUnknown: srun says an unknown --compress type is off
// and runs, as the peer's does.
func TestSrunCompressUnknown(t *testing.T) {
	p := &Parser{Cwd: "/work", Now: testNow}
	res, err := p.Srun([]string{"--compress=foo", "true"})
	if err != nil {
		t.Fatal(err)
	}
	want := "srun: error: Compression type 'foo' unknown, disabling compression support."
	if len(res.Warnings) == 0 || res.Warnings[0] != want {
		t.Errorf("warnings %q, want %q first", res.Warnings, want)
	}
}
