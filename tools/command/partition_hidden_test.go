package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// hiddenFake has a visible default partition and one hidden from the
// caller (Hidden=YES, AllowGroups that leave the caller out).
func hiddenFake() *fakeController {
	return &fakeController{now: 1795950000, partitions: []api.Partition{
		{Name: "normal", State: "UP", Default: true, MaxTime: api.UnlimitedSeconds, MaxNodes: -1},
		{Name: "s14g", State: "UP", MaxTime: api.UnlimitedSeconds, MaxNodes: -1, MinNodes: 1,
			Hidden: true, AllowGroups: []string{"s14grp", "root"}, HiddenFromCaller: true},
	}}
}

// TestSinfoHiddenPartitions: as the peer's sinfo for a user outside the
// partition's groups, a hidden partition shows only with -a, SINFO_ALL or
// when -p names it.
func TestSinfoHiddenPartitions(t *testing.T) {
	tests := map[string]struct {
		args []string
		env  []string
		want string
	}{
		"default":       {nil, nil, "normal*\n"},
		"-a":            {[]string{"-a"}, nil, "normal*\ns14g\n"},
		"--all":         {[]string{"--all"}, nil, "normal*\ns14g\n"},
		"SINFO_ALL":     {nil, []string{"SINFO_ALL=1"}, "normal*\ns14g\n"},
		"-p names it":   {[]string{"-p", "s14g"}, nil, "s14g\n"},
		"-p others":     {[]string{"-p", "normal"}, nil, "normal*\n"},
		"SINFO_PART...": {nil, []string{"SINFO_PARTITION=s14g"}, "s14g\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(hiddenFake(), 1795950000)
			te.Environ = append(te.Environ, tc.env...)
			if code := Sinfo(context.Background(), te.Env, append([]string{"-h", "-o", "%P"}, tc.args...)); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestScontrolHiddenPartitions: scontrol show partition skips a hidden
// partition and says it is not found by name, unless -a (or SCONTROL_ALL,
// or the interactive "all" command) asks for all; the record prints the
// partition's AllowGroups and Hidden as the peer does.
func TestScontrolHiddenPartitions(t *testing.T) {
	run := func(env []string, args ...string) (int, string) {
		te := newTestEnv(hiddenFake(), 1795950000)
		te.Environ = append(te.Environ, env...)
		code := Scontrol(context.Background(), te.Env, args)
		return code, te.stdout.String() + te.stderr.String()
	}
	names := func(out string) string {
		var got []string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "PartitionName=") || strings.Contains(l, "not found") {
				got = append(got, l)
			}
		}
		return strings.Join(got, ";")
	}
	type result struct {
		Code  int
		Names string
	}
	got := map[string]result{}
	for name, args := range map[string][]string{
		"all":          {"show", "partition"},
		"by name":      {"show", "partition", "s14g"},
		"-a all":       {"-a", "show", "partition"},
		"-a by name":   {"-a", "show", "partition", "s14g"},
		"--all":        {"--all", "show", "partition", "s14g"},
		"option after": {"show", "partition", "s14g", "-a"},
	} {
		code, out := run(nil, args...)
		got[name] = result{code, names(out)}
	}
	code, out := run([]string{"SCONTROL_ALL=1"}, "show", "partition", "s14g")
	got["SCONTROL_ALL"] = result{code, names(out)}
	want := map[string]result{
		"all":          {0, "PartitionName=normal"},
		"by name":      {1, "Partition s14g not found"},
		"-a all":       {0, "PartitionName=normal;PartitionName=s14g"},
		"-a by name":   {0, "PartitionName=s14g"},
		"--all":        {0, "PartitionName=s14g"},
		"option after": {0, "PartitionName=s14g"},
		"SCONTROL_ALL": {0, "PartitionName=s14g"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	te := newTestEnv(hiddenFake(), 1795950000)
	te.Stdin = strings.NewReader("all\nshow partition s14g\nhide\nshow partition s14g\n")
	Scontrol(context.Background(), te.Env, nil)
	if got, want := names(te.stdout.String()), "PartitionName=s14g;Partition s14g not found"; got != want {
		t.Errorf("interactive all, then hide: %q, want %q", got, want)
	}
	_, out = run(nil, "-a", "show", "partition", "s14g")
	for _, line := range []string{ // the peer's lines for this partition
		"   AllowGroups=s14grp,root AllowAccounts=ALL AllowQos=ALL\n",
		"   DefaultTime=NONE DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=YES\n",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("record lacks the peer's line %q:\n%s", line, out)
		}
	}
}

// TestSqueueAsksForHiddenJobs: squeue asks the controller for the jobs of
// hidden partitions with -a, SQUEUE_ALL or -p, as the peer's squeue
// lists them only then.
func TestSqueueAsksForHiddenJobs(t *testing.T) {
	tests := map[string]struct {
		args []string
		env  []string
		want bool
	}{
		"default":    {nil, nil, false},
		"-a":         {[]string{"-a"}, nil, true},
		"SQUEUE_ALL": {nil, []string{"SQUEUE_ALL="}, true},
		"-p":         {[]string{"-p", "s14g"}, nil, true},
		"-u":         {[]string{"-u", "root"}, nil, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := hiddenFake()
			te := newTestEnv(f, 1795950000)
			te.Environ = append(te.Environ, tc.env...)
			if code := Squeue(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if len(f.queries) == 0 || f.queries[0].All != tc.want {
				t.Errorf("queries %+v, want All=%v", f.queries, tc.want)
			}
		})
	}
}
