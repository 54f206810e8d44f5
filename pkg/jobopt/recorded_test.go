package jobopt

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/job"
)

// recordedFields is what the recorded options set in a request.
type recordedFields struct {
	Reboot                                        bool
	BurstBuffer, Network, ClusterConstraint, GPUs string
	DelayBoot                                     int64
	PowerLevel                                    bool
	GresFlags                                     job.GresFlags
	AcctgFreq                                     string
}

func recordedOf(r *job.Request) recordedFields {
	return recordedFields{Reboot: r.Reboot, BurstBuffer: r.BurstBuffer, Network: r.Network,
		ClusterConstraint: r.ClusterConstraint, GPUs: r.GPUsPerSocket, DelayBoot: r.DelayBoot,
		PowerLevel: r.PowerLevel, GresFlags: r.GresFlags, AcctgFreq: r.AcctgFreq}
}

// TestRecordedOptions checks the options Loam records without acting on
// them against what the peer's sbatch accepted (scontrol show job of the
// held job) or printed and exited with.
func TestRecordedOptions(t *testing.T) {
	powerFoo := "sbatch: error: Ignoring unrecognized power option (foo)"
	tests := map[string]struct {
		env      []string
		script   string
		args     []string
		want     recordedFields
		warnings []string
		errLines []string
		errCode  int
	}{
		"reboot":                  {args: []string{"--reboot"}, want: recordedFields{Reboot: true}},
		"bb":                      {args: []string{"--bb=capacity=1G"}, want: recordedFields{BurstBuffer: "capacity=1G"}},
		"bb in the script":        {script: "#SBATCH --bb=capacity=3G\n", want: recordedFields{BurstBuffer: "capacity=3G"}},
		"an unreadable bbf":       {args: []string{"--bbf=/tmp/bb"}, errLines: []string{"sbatch: error: Invalid --bbf specification"}, errCode: 1},
		"bb and bbf":              {args: []string{"--bbf=/tmp/bb", "--bb=capacity=1G"}, errLines: []string{"sbatch: error: Cannot specify both --burst-buffer and --bbf"}, errCode: 1},
		"network":                 {args: []string{"--network=foo"}, want: recordedFields{Network: "foo"}},
		"cluster-constraint":      {args: []string{"--cluster-constraint=x"}, want: recordedFields{ClusterConstraint: "x"}},
		"delay-boot minutes":      {args: []string{"--delay-boot=5"}, want: recordedFields{DelayBoot: 300}},
		"delay-boot M:S":          {args: []string{"--delay-boot=1:30"}, want: recordedFields{DelayBoot: 90}},
		"delay-boot D-H":          {args: []string{"--delay-boot=1-0"}, want: recordedFields{DelayBoot: 86400}},
		"delay-boot H:M:S":        {args: []string{"--delay-boot=1:2:3"}, want: recordedFields{DelayBoot: 3723}},
		"delay-boot -1":           {args: []string{"--delay-boot=-1"}, want: recordedFields{DelayBoot: -1}},
		"delay-boot INFINITE":     {args: []string{"--delay-boot=INFINITE"}, want: recordedFields{DelayBoot: -1}},
		"delay-boot negative":     {args: []string{"--delay-boot=-5"}, want: recordedFields{DelayBoot: -5 * 86400}},
		"delay-boot bad":          {args: []string{"--delay-boot=5x"}, errLines: []string{"sbatch: error: Invalid --delay-boot specification"}, errCode: 255},
		"delay-boot empty":        {args: []string{"--delay-boot="}, errLines: []string{"sbatch: error: Invalid --delay-boot specification"}, errCode: 255},
		"delay-boot bad variable": {env: []string{"SBATCH_DELAY_BOOT=bad"}, errLines: []string{"sbatch: error: Invalid --delay-boot specification"}, errCode: 255},
		"power level":             {args: []string{"--power=LEVEL"}, want: recordedFields{PowerLevel: true}},
		"power unknown, twice":    {args: []string{"--power=foo"}, warnings: []string{powerFoo, powerFoo}},
		"power level and unknown": {args: []string{"--power=level,foo"}, want: recordedFields{PowerLevel: true}, warnings: []string{powerFoo, powerFoo}},
		"power unknown in script": {script: "#SBATCH --power=foo\n", warnings: []string{powerFoo}},
		"power unknown variable":  {env: []string{"SBATCH_POWER=foo"}, warnings: []string{powerFoo}},
		"power empty":             {args: []string{"--power="}},
		"gres-flags enforce":      {args: []string{"--gres-flags=Enforce-Binding"}, want: recordedFields{GresFlags: job.GresEnforceBinding}},
		"gres-flags last wins":    {args: []string{"--gres-flags=enforce-binding", "--gres-flags=disable-binding"}, want: recordedFields{GresFlags: job.GresDisableBinding}},
		"gres-flags bad":          {args: []string{"--gres-flags=enforce"}, errLines: []string{"sbatch: error: Invalid --gres-flags specification"}, errCode: 255},
		"gres-flags bad variable": {env: []string{"SBATCH_GRES_FLAGS=bad"}, errLines: []string{"sbatch: error: Invalid --gres-flags specification"}, errCode: 255},
		"gpus-per-socket":         {args: []string{"--gpus-per-socket=a100:2", "--sockets-per-node=2"}, want: recordedFields{GPUs: "a100:2"}},
		"gpus-per-socket with -B": {args: []string{"--gpus-per-socket=2", "-B", "2"}, want: recordedFields{GPUs: "2"}},
		"gpus-per-socket alone": {args: []string{"--gpus-per-socket=2"}, errCode: 1, errLines: []string{
			"sbatch: error: --gpus-per-socket option requires --sockets-per-node specification",
			"sbatch: error: Invalid generic resource (gres) specification"}},
		"acctg-freq":               {args: []string{"--acctg-freq=task=5,energy=60"}, want: recordedFields{AcctgFreq: "task=5,energy=60"}},
		"acctg-freq type anywhere": {args: []string{"--acctg-freq=xenergy=3"}, want: recordedFields{AcctgFreq: "xenergy=3"}},
		"acctg-freq bad items": {args: []string{"--acctg-freq=foo,30,bar"}, errCode: 255, errLines: []string{
			"sbatch: error: Invalid --acctg-freq specification: foo", "sbatch: error: Invalid --acctg-freq specification: bar"}},
		"acctg-freq -1":           {args: []string{"--acctg-freq=-1"}, errCode: 255, errLines: []string{"sbatch: error: Invalid --acctg-freq specification: -1"}},
		"acctg-freq no number":    {args: []string{"--acctg-freq=energy=x"}, errCode: 255, errLines: []string{"sbatch: error: Invalid --acctg-freq specification: energy=x"}},
		"acctg-freq bad variable": {env: []string{"SBATCH_ACCTG_FREQ=foo"}, errCode: 255, errLines: []string{"sbatch: error: Invalid --acctg-freq specification: foo"}},
		"variables": {env: []string{"SBATCH_BURST_BUFFER=cap=4G", "SBATCH_NETWORK=net1", "SBATCH_DELAY_BOOT=7", "SBATCH_POWER=level",
			"SBATCH_CLUSTER_CONSTRAINT=cc", "SBATCH_GRES_FLAGS=disable-binding", "SBATCH_GPUS_PER_SOCKET=1"}, args: []string{"--sockets-per-node=1"},
			want: recordedFields{BurstBuffer: "cap=4G", Network: "net1", DelayBoot: 420, PowerLevel: true, ClusterConstraint: "cc",
				GresFlags: job.GresDisableBinding, GPUs: "1"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res, err := submit(t, tc.env, "#!/bin/sh\n"+tc.script, append(tc.args, "job.sh")...)
			if tc.errLines != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("err = %v, want %q", err, tc.errLines)
				}
				if diff := cmp.Diff(tc.errLines, e.Lines); diff != "" || e.Code != tc.errCode {
					t.Errorf("exit %d, want %d; lines (-want +got):\n%s", e.Code, tc.errCode, diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, recordedOf(&res.Request)); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.warnings, withoutIgnored(res.Warnings)); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRecordedOptionsSrunSalloc checks what differs in salloc and srun,
// from the peer: the --bb/--bbf message's wording, --power's warning
// printed once, and --gpus-per-socket's check.
func TestRecordedOptionsSrunSalloc(t *testing.T) {
	p := &Parser{Cwd: "/home/u", Now: testNow}
	_, err := p.Salloc([]string{"--bb=x", "--bbf=/tmp/bb"})
	wantErr(t, err, 1, "salloc: error: Cannot specify both --bb and --bbf")
	_, err = p.Srun([]string{"--bb=x", "--bbf=/tmp/bb", "true"})
	wantErr(t, err, 1, "srun: error: Cannot specify both --burst-buffer and --bbf")
	_, err = p.Srun([]string{"--gpus-per-socket=2", "true"})
	wantErr(t, err, 1, "srun: error: --gpus-per-socket option requires --sockets-per-node specification",
		"srun: error: Invalid generic resource (gres) specification")

	res, err := p.Salloc([]string{"--power=foo", "--reboot", "--network=foo", "--gpus-per-socket=2", "--sockets-per-node=2"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"salloc: error: Ignoring unrecognized power option (foo)"}, withoutIgnored(res.Warnings)); diff != "" {
		t.Errorf("salloc warnings (-want +got):\n%s", diff)
	}
	if r := res.Request; !r.Reboot || r.Network != "foo" || r.GPUsPerSocket != "2" {
		t.Errorf("salloc request: reboot %v network %q gpus per socket %q", r.Reboot, r.Network, r.GPUsPerSocket)
	}
	srun := &Parser{Cwd: "/home/u", Now: testNow, Env: []string{"SLURM_POWER=foo"}}
	res, err = srun.Srun([]string{"--delay-boot=5", "true"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"srun: error: Ignoring unrecognized power option (foo)"}, res.Warnings); diff != "" {
		t.Errorf("srun warnings (-want +got):\n%s", diff)
	}
	if res.Request.DelayBoot != 300 {
		t.Errorf("srun --delay-boot=5: %d seconds, want 300", res.Request.DelayBoot)
	}
}

// withoutIgnored drops the "Loam ignores" lines of the options around
// the ones tested (--sockets-per-node, -B), Loam's own lines.
func withoutIgnored(warnings []string) []string {
	var out []string
	for _, w := range warnings {
		if !strings.Contains(w, ": warning: Loam ignores --sockets-per-node") && !strings.Contains(w, ": warning: Loam ignores -B") {
			out = append(out, w)
		}
	}
	return out
}

func wantErr(t *testing.T, err error, code int, lines ...string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want %q", err, lines)
	}
	if diff := cmp.Diff(lines, e.Lines); diff != "" || e.Code != code {
		t.Errorf("exit %d, want %d; lines (-want +got):\n%s", e.Code, code, diff)
	}
}

// TestBBFInScript: sbatch --bbf puts the file's lines after the script's
// first line, as the peer's scontrol write batch_script shows them for a
// script and for --wrap; a script without "#" at the front gets them
// before it.
func TestBBFInScript(t *testing.T) {
	bb := "#BB create_persistent name=x\n#DW jobdw capacity=1GB\n"
	read := func(name string) ([]byte, error) {
		if name != "/home/u/bb.txt" {
			return nil, errors.New("no such file")
		}
		return []byte(bb), nil
	}
	for _, tc := range []struct {
		script string
		args   []string
		want   string
	}{
		{script: "#!/bin/bash\n#SBATCH -J bbt\necho hi\n", args: []string{"--bbf=bb.txt", "job.sh"},
			want: "#!/bin/bash\n" + bb + "#SBATCH -J bbt\necho hi\n"},
		{args: []string{"--bbf=bb.txt", "--wrap=echo hi"},
			want: "#!/bin/sh\n" + bb + "# This script was created by sbatch --wrap.\n\necho hi\n"},
	} {
		p := &Parser{Cwd: "/home/u", Now: testNow, ReadFile: read}
		cl, err := p.CommandLine(tc.args)
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Submission(cl, []byte(tc.script))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, res.Request.Script); diff != "" {
			t.Errorf("%v (-want +got):\n%s", tc.args, diff)
		}
	}
	if got := addToScript("echo hi\n", "#BB x"); got != "#BB x\necho hi\n" {
		t.Errorf("before a script without #: %q", got)
	}
}
