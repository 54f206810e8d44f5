package jobopt

import (
	"strings"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// The setters of the options Loam records in the request and shows as
// Slurm does (scontrol show job, squeue) without acting on them: --bb,
// --network, --cluster-constraint, --delay-boot, --power, --gres-flags,
// --gpus-per-socket, and --acctg-freq for the controller's check. They
// warn of nothing, as the peer prints nothing:
// the man pages say that they have no effect. --reboot is recorded too;
// the controller gives such a job whole nodes, as Slurm does.

func setBurstBuffer(b *builder, v value) error { b.req.BurstBuffer = v.str; return nil }
func setNetwork(b *builder, v value) error     { b.req.Network = v.str; return nil }
func setClusterConstraint(b *builder, v value) error {
	b.req.ClusterConstraint = v.str
	return nil
}
func setReboot(b *builder, v value) error        { b.req.Reboot = !v.reset; return nil }
func setGPUsPerSocket(b *builder, v value) error { b.req.GPUsPerSocket = v.str; return nil }

// setAcctgFreq reports every item of --acctg-freq that gives no data type
// an interval, as Slurm's validate_acctg_freq does, and refuses the value
// if there was one; the controller checks the task interval.
func setAcctgFreq(b *builder, v value) error {
	bad := job.BadAcctgFreqItems(v.str)
	if len(bad) == 0 {
		b.req.AcctgFreq = v.str
		return nil
	}
	e := &Error{Code: ExitClient}
	for _, item := range bad {
		e.Lines = append(e.Lines, b.p.prog()+": error: Invalid --acctg-freq specification: "+item)
	}
	return e
}

// setDelayBoot reads --delay-boot as Slurm's time_str2secs: minutes, or
// M:S, H:M:S, D-H[:M[:S]], -1 or UNLIMITED.
func setDelayBoot(b *builder, v value) error {
	secs, ok := slurmtime.Str2Secs(v.str)
	if !ok {
		return b.clientError("Invalid --delay-boot specification")
	}
	b.req.DelayBoot = secs
	return nil
}

// setGresFlags takes enforce-binding or disable-binding, in any case; the
// last occurrence wins.
func setGresFlags(b *builder, v value) error {
	switch strings.ToLower(v.str) {
	case string(job.GresEnforceBinding):
		b.req.GresFlags = job.GresEnforceBinding
	case string(job.GresDisableBinding):
		b.req.GresFlags = job.GresDisableBinding
	default:
		return b.clientError("Invalid --gres-flags specification")
	}
	return nil
}

// setPower reads --power's comma-separated flags as Slurm's
// power_flags_id: "level" in any case; any other word is reported and
// skipped, and the job is submitted all the same. A command-line value
// is read in both of the command's passes over its arguments, so it is
// reported twice, as the peer's sbatch does (srun and salloc read it
// once).
func setPower(b *builder, v value) error {
	level := false
	for _, w := range strings.Split(v.str, ",") {
		switch {
		case w == "":
		case strings.EqualFold(w, "level"):
			level = true
		default:
			line := b.p.prog() + ": error: Ignoring unrecognized power option (" + w + ")"
			b.warnings = append(b.warnings, line)
			if v.src == fromArgv && b.p.prog() == "sbatch" {
				b.warnings = append(b.warnings, line)
			}
		}
	}
	b.req.PowerLevel = level
	return nil
}

// setBBF reads sbatch's --bbf file, whose lines sbatch puts into the
// script after its first line (run_command_add_to_script): burst buffer
// directives (#BB, #DW), comments to the shell. Loam has no burst
// buffers; the script keeps them as Slurm's does.
//
// The file is read once the options are checked (readBBF), as sbatch
// reads it after refusing --bb with --bbf. salloc and srun put it in the
// job's burst buffer request instead, which Loam ignores with a warning.
func setBBF(b *builder, v value) error {
	switch b.p.prog() {
	case "srun":
		b.bbfPath = v.str // read to check it only (verifyStep)
		b.ignored(v)
	case "sbatch":
		b.bbfPath = v.str
	default:
		b.ignored(v)
	}
	return nil
}

// readBBF reads --bbf's file into the text finish adds to the script.
func (b *builder) readBBF() error {
	if b.bbfPath == "" {
		return nil
	}
	data, err := b.readFile(b.bbfPath) // export_file.go
	if err != nil || len(data) == 0 {
		return b.exitError("Invalid --bbf specification")
	}
	b.bbf = string(data)
	return nil
}

// addToScript is Slurm's run_command_add_to_script: text (ended by a new
// line) goes after the script's first line when it starts with '#', else
// before it.
func addToScript(script, text string) string {
	if text == "" {
		return script
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if !strings.HasPrefix(script, "#") {
		return text + script
	}
	first, rest, ok := strings.Cut(script, "\n")
	if !ok {
		return script + "\n" + text
	}
	return first + "\n" + text + rest
}

// checkBurstBuffer refuses --bb with --bbf as the commands do, in each
// one's words (Loam ignores --bbf's file, but not the conflict).
func (b *builder) checkBurstBuffer() error {
	_, bb := b.passed["bb"]
	_, bbf := b.passed["bbf"]
	if !bb || !bbf {
		return nil
	}
	name := "--burst-buffer"
	if b.p.prog() == "salloc" {
		name = "--bb"
	}
	return b.exitError("Cannot specify both " + name + " and --bbf")
}
