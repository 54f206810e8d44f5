package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var commandsByName = map[string]func(ctx context.Context, env *Env, args []string) int{
	"sacct": Sacct, "salloc": Salloc, "sbatch": Sbatch, "sbcast": Sbcast, "scancel": Scancel,
	"scontrol": Scontrol, "sdiag": Sdiag, "sinfo": Sinfo, "sprio": Sprio, "squeue": Squeue,
	"sreport": Sreport, "srun": Srun, "sshare": Sshare, "sstat": Sstat,
}

// runCalled runs command name as if called as argv0 with args.
func runCalled(t *testing.T, name, argv0 string, args ...string) (stderr string, code int) {
	t.Helper()
	te := newTestEnv(&fakeController{}, 1795980220)
	te.Env.Argv0 = argv0
	code = commandsByName[name](context.Background(), te.Env, args)
	return te.stderr.String(), code
}

// TestGetoptNamesArgv0: glibc's own line names the program as it was
// called ("/usr/bin/srun" when run by path); the hint after it, printed
// by the command, names the command. sacct and sstat print no hint. The
// expected texts are the peer's (Slurm 22.05 on glibc).
func TestGetoptNamesArgv0(t *testing.T) {
	hint := func(c string) string { return "Try \"" + c + " --help\" for more information\n" }
	tests := map[string]struct {
		cmd, argv0 string
		args       []string
		stderr     string
		code       int
	}{
		"srun by path": {cmd: "srun", argv0: "/usr/bin/srun", args: []string{"--foo"},
			stderr: "/usr/bin/srun: unrecognized option '--foo'\n" + hint("srun"), code: 255},
		"srun by name": {cmd: "srun", argv0: "srun", args: []string{"--foo"},
			stderr: "srun: unrecognized option '--foo'\n" + hint("srun"), code: 255},
		"sbatch flag with a value": {cmd: "sbatch", argv0: "/usr/bin/sbatch", args: []string{"--hold=1"},
			stderr: "/usr/bin/sbatch: option '--hold' doesn't allow an argument\n" + hint("sbatch"), code: 255},
		"salloc missing short value": {cmd: "salloc", argv0: "/usr/bin/salloc", args: []string{"-t"},
			stderr: "/usr/bin/salloc: option requires an argument -- 't'\n" + hint("salloc"), code: 255},
		"squeue invalid short": {cmd: "squeue", argv0: "/usr/bin/squeue", args: []string{"-Z"},
			stderr: "/usr/bin/squeue: invalid option -- 'Z'\n" + hint("squeue"), code: 1},
		"sinfo missing long value": {cmd: "sinfo", argv0: "./sinfo", args: []string{"--format"},
			stderr: "./sinfo: option '--format' requires an argument\n" + hint("sinfo"), code: 1},
		"scancel ambiguous": {cmd: "scancel", argv0: "/usr/bin/scancel", args: []string{"--s"},
			stderr: "/usr/bin/scancel: option '--s' is ambiguous; possibilities: '--sibling' '--signal' '--state'\n" + hint("scancel"), code: 1},
		"scontrol": {cmd: "scontrol", argv0: "/usr/bin/scontrol", args: []string{"--all=1"},
			stderr: "/usr/bin/scontrol: option '--all' doesn't allow an argument\n" + hint("scontrol"), code: 1},
		"sacct has no hint": {cmd: "sacct", argv0: "/usr/bin/sacct", args: []string{"--foo"},
			stderr: "/usr/bin/sacct: unrecognized option '--foo'\n", code: 1},
		"sstat has no hint": {cmd: "sstat", argv0: "sstat", args: []string{"-Z"},
			stderr: "sstat: invalid option -- 'Z'\n", code: 1},
		"sprio": {cmd: "sprio", argv0: "/usr/bin/sprio", args: []string{"--n"},
			stderr: "/usr/bin/sprio: option '--n' is ambiguous; possibilities: '--noheader' '--norm'\n" + hint("sprio"), code: 1},
		"sshare": {cmd: "sshare", argv0: "/usr/bin/sshare", args: []string{"--foo"},
			stderr: "/usr/bin/sshare: unrecognized option '--foo'\n" + hint("sshare"), code: 1},
		"sdiag": {cmd: "sdiag", argv0: "/usr/bin/sdiag", args: []string{"-M"},
			stderr: "/usr/bin/sdiag: option requires an argument -- 'M'\n" + hint("sdiag"), code: 1},
		"sreport": {cmd: "sreport", argv0: "/usr/bin/sreport", args: []string{"--noheader=1"},
			stderr: "/usr/bin/sreport: option '--noheader' doesn't allow an argument\n" + hint("sreport"), code: 1},
		"sbcast": {cmd: "sbcast", argv0: "/usr/bin/sbcast", args: []string{"--foo"},
			stderr: "/usr/bin/sbcast: unrecognized option '--foo'\n" + hint("sbcast"), code: 1},
		"no argv0 is the bare name": {cmd: "squeue", args: []string{"--foo"},
			stderr: "squeue: unrecognized option '--foo'\n" + hint("squeue"), code: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			stderr, code := runCalled(t, tc.cmd, tc.argv0, tc.args...)
			if diff := cmp.Diff([]any{tc.stderr, tc.code}, []any{stderr, code}); diff != "" {
				t.Errorf("%s %v (-want +got):\n%s", tc.cmd, tc.args, diff)
			}
		})
	}
}

// TestGetoptAmbiguousOrder: the possibilities come in Slurm's table order
// and only options Slurm 22.05 has (texts from the peer).
func TestGetoptAmbiguousOrder(t *testing.T) {
	tests := map[string]struct {
		cmd, arg, want string
	}{
		"sacct --n": {"sacct", "--n", "sacct: option '--n' is ambiguous; possibilities: '--name' '--nnodes' '--ncpus' '--nodelist' '--noconvert' '--noheader'\n"},
		"sacct --a": {"sacct", "--a", "sacct: option '--a' is ambiguous; possibilities: '--allusers' '--accounts' '--allocations' '--allclusters' '--associations'\n"},
		"sacct --u": {"sacct", "--u", "sacct: option '--u' is ambiguous; possibilities: '--units' '--uid' '--use-local-uid' '--usage' '--user'\n"},
		"sacct --f": {"sacct", "--f", "sacct: option '--f' is ambiguous; possibilities: '--federation' '--file' '--flags' '--fields' '--format'\n"},
		"sacct --t": {"sacct", "--t", "sacct: option '--t' is ambiguous; possibilities: '--timelimit-min' '--timelimit-max' '--truncate'\n"},
		"sacct --w": {"sacct", "--w", "sacct: option '--w' is ambiguous; possibilities: '--wckeys' '--whole-hetjob'\n"},
		"sacct --r": {"sacct", "--r", "sacct: option '--reason' requires an argument\n"},
		"sprio --s": {"sprio", "--s", "sprio: option '--s' is ambiguous; possibilities: '--sort' '--sib' '--sibling'\n" +
			"Try \"sprio --help\" for more information\n"},
		"sshare --a": {"sshare", "--a", "sshare: option '--a' is ambiguous; possibilities: '--accounts' '--all'\n" +
			"Try \"sshare --help\" for more information\n"},
		"scontrol has no --json": {"scontrol", "--json", "scontrol: unrecognized option '--json'\n" +
			"Try \"scontrol --help\" for more information\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			stderr, code := runCalled(t, tc.cmd, "", tc.arg)
			if diff := cmp.Diff([]any{tc.want, 1}, []any{stderr, code}); diff != "" {
				t.Errorf("%s %s (-want +got):\n%s", tc.cmd, tc.arg, diff)
			}
		})
	}
}

// TestSacctUnsupportedOptions: options Slurm's sacct has and Loam cannot
// answer stop with a message naming the option, not a silent wrong list.
func TestSacctUnsupportedOptions(t *testing.T) {
	for _, args := range [][]string{{"-i", "2"}, {"--ncpus=4"}, {"--reason=x"}, {"-W", "w"}, {"--whole-hetjob"}} {
		stderr, code := runCalled(t, "sacct", "", args...)
		want := "sacct: error: " + sacctUnsupported[optionID(t, args[0])] + " is not supported\n"
		if stderr != want || code != 1 {
			t.Errorf("sacct %v: exit %d, stderr %q; want 1, %q", args, code, stderr, want)
		}
	}
}

func optionID(t *testing.T, arg string) string {
	t.Helper()
	opts, _, err := getopt(progName{name: "sacct"}, []string{arg, "x"}, sacctOpts)
	if err != nil || len(opts) != 1 {
		t.Fatalf("getopt %s: %v", arg, err)
	}
	return opts[0].id
}

// TestScontrolVersionArguments: "version" with arguments complains, still
// prints the version and exits 1, as the peer does.
func TestScontrolVersionArguments(t *testing.T) {
	te := newTestEnv(&fakeController{}, 1795980220)
	code := Scontrol(context.Background(), te.Env, []string{"vers", "x"})
	got := []any{te.stdout.String(), te.stderr.String(), code}
	want := []any{versionLine + "\n", "too many arguments for vers keyword\n", 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scontrol vers x (-want +got):\n%s", diff)
	}
}

// TestSshareT: Slurm's sshare takes -t VALUE and -q in its optstring but
// has no case for them (the peer's messages).
func TestSshareT(t *testing.T) {
	tests := map[string]struct {
		args   []string
		stderr string
	}{
		"with a value": {[]string{"-t", "x"}, "getopt error, returned t\n"},
		"-q":           {[]string{"-q"}, "getopt error, returned q\n"},
		"without":      {[]string{"-t"}, "sshare: option requires an argument -- 't'\nTry \"sshare --help\" for more information\n"},
	}
	for name, tc := range tests {
		stderr, code := runCalled(t, "sshare", "", tc.args...)
		if diff := cmp.Diff([]any{tc.stderr, 1}, []any{stderr, code}); diff != "" {
			t.Errorf("%s: sshare %v (-want +got):\n%s", name, tc.args, diff)
		}
	}
}

// TestSshareHIsNoheader: the peer's sshare -h prints no header (its
// optstring's h is -n, not help).
func TestSshareHIsNoheader(t *testing.T) {
	run := func(args ...string) string {
		te := newTestEnv(&fakeController{}, 1795980220)
		f := sharesData()
		te.Dial = func(context.Context) (Controller, error) { return f, nil }
		if code := Sshare(context.Background(), te.Env, args); code != 0 {
			t.Fatalf("sshare %v: exit %d, %s", args, code, te.stderr.String())
		}
		return te.stdout.String()
	}
	if diff := cmp.Diff(run("-a", "-n"), run("-a", "-h")); diff != "" {
		t.Errorf("sshare -h differs from -n (-want +got):\n%s", diff)
	}
}

// TestGetoptPrefixesMeanWhatSlurmsDo: a prefix selects what it selects
// on the peer even where Loam has an option Slurm lacks (sprio
// --history), and two names of one option (sprio --sib, --sibling) do not
// make their prefix ambiguous.
func TestGetoptPrefixesMeanWhatSlurmsDo(t *testing.T) {
	same := map[string][2]string{"sprio --h is --help": {"--h", "--help"}, "sprio --si is --sibling": {"--si", "--sibling"}}
	for name, args := range same {
		abbrev, abbrevCode := runCalled(t, "sprio", "/usr/bin/sprio", args[0])
		full, fullCode := runCalled(t, "sprio", "/usr/bin/sprio", args[1])
		if abbrev != full || abbrevCode != fullCode {
			t.Errorf("%s: got %q, exit %d; want %q, exit %d", name, abbrev, abbrevCode, full, fullCode)
		}
	}
	stderr, code := runCalled(t, "sbatch", "/usr/bin/sbatch", "--d")
	want := "/usr/bin/sbatch: option '--d' is ambiguous; possibilities: '--deadline' '--delay-boot' '--dependency' '--distribution'\n" +
		"Try \"sbatch --help\" for more information\n"
	if stderr != want || code != 255 {
		t.Errorf("sbatch --d: got %q, exit %d; want %q, exit 255", stderr, code, want)
	}
}
