package jobopt

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/job"
)

// valueChecks are the checks Slurm makes on options Loam otherwise
// ignores: a script with a bad value must fail with the peer's words and
// exit status even though Loam would not act on a good one. Keyed by
// long name; they run before the option is passed on or ignored.
var valueChecks = map[string]func(b *builder, v value) error{
	"threads-per-core": positiveCheck("--threads-per-core"),
	"cores-per-socket": positiveCheck("--cores-per-socket"),
	"sockets-per-node": positiveCheck("--sockets-per-node"),
	"ntasks-per-core":  positiveCheck("--ntasks-per-core"),
	"wait-all-nodes":   checkWaitAllNodes,
	"extra-node-info":  checkExtraNodeInfo,
	"propagate":        checkPropagate,
	"hint":             checkHint,
	"mem-bind":         checkMemBind,
	"cpu-freq":         checkCPUFreq,
	"uid":              checkUID,
	"gid":              checkGID,
	"get-user-env":     checkGetUserEnv,
	"profile":          checkProfile,
	"gpu-freq":         checkGPUFreq,
	// srun's own options Loam ignores.
	"msg-timeout": srunOnly(positiveCheck("--msg-timeout")),
	"threads":     srunOnly(positiveCheck("--threads")),
	"mincpus":     srunOnly(positiveCheck("--mincpus")),
	"resv-ports":  srunOnly(func(b *builder, v value) error { _, err := b.parseInt("--resv-port", v.str, false); return err }),
	"het-group":   srunOnly(checkHetGroup),
	"compress":    srunOnly(checkCompress),
}

// srunOnly applies check to srun's option only (sbatch and salloc read
// an option of that name their own way).
func srunOnly(check func(b *builder, v value) error) func(b *builder, v value) error {
	return func(b *builder, v value) error {
		if b.p.prog() != "srun" {
			return nil
		}
		return check(b, v)
	}
}

// checkHetGroup reads --het-group as Slurm's bit string ranges: numbers
// and ranges separated by commas ("_parse_single_range: Invalid range:
// `a'", then "Invalid --het-group value: 1,a").
func checkHetGroup(b *builder, v value) error {
	for _, r := range strings.Split(v.str, ",") {
		lo, hi, isRange := strings.Cut(r, "-")
		ok := isNumber(lo) && (!isRange || isNumber(hi))
		if !ok {
			return b.exitError("_parse_single_range: Invalid range: `"+r+"'", "Invalid --het-group value: "+v.str)
		}
	}
	return nil
}

// isNumber reports whether s is digits alone.
func isNumber(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// checkCompress is srun's word on an unknown --compress type: an error
// line, and the step runs uncompressed.
func checkCompress(b *builder, v value) error {
	switch strings.ToLower(v.str) {
	case "lz4", "zlib", "none":
	default:
		b.warnings = append(b.warnings, "srun: error: Compression type '"+v.str+"' unknown, disabling compression support.")
	}
	return nil
}

// checkProfile is acct_gather_profile_from_string: the value must name
// (anywhere, in any case) none, all, energy, task, lustre or network.
func checkProfile(b *builder, v value) error {
	s := strings.ToLower(v.str)
	for _, name := range []string{"none", "all", "energy", "task", "lustre", "network"} {
		if strings.Contains(s, name) {
			return nil
		}
	}
	return b.clientError("invalid --profile=%s option", v.str)
}

// checkGPUFreq is tres_freq_verify_cmdline on "gpu:VALUE", the check
// slurmctld makes on scontrol update's TresFreq= too.
func checkGPUFreq(b *builder, v value) error {
	if !job.ValidTresFreq("gpu:" + v.str) {
		return b.clientError("Invalid --gpu-freq argument: gpu:%s", v.str)
	}
	return nil
}

// checkValue runs o's check, if it has one, on an occurrence with a value.
func (b *builder) checkValue(o *Option, v value) error {
	check := valueChecks[o.Long]
	if check == nil || v.reset || !v.has {
		return nil
	}
	return check(b, v)
}

// setGetUserEnv takes --get-user-env, which environment() turns into
// SLURM_GET_USER_ENV=1 as sbatch does; its timeout and mode are checked
// (checkGetUserEnv) and not used: the node's login shell has its own.
func setGetUserEnv(b *builder, v value) error { return nil }

// checkGetUserEnv reads --get-user-env=[timeout][S|L] as Slurm does: a
// number as strtol reads it, then nothing or a mode letter (only the first
// character after the number is looked at, so "10Lx" passes).
func checkGetUserEnv(b *builder, v value) error {
	rest := strtolRest(v.str)
	if rest == "" || strings.ContainsRune("sSlL", rune(rest[0])) {
		return nil
	}
	return b.clientError("Invalid --get-user-env specification")
}

// strtolRest is the text C's strtol leaves after a base-10 number: what
// follows its digits, or all of s when there are none.
func strtolRest(s string) string {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	if t != "" && (t[0] == '+' || t[0] == '-') {
		t = t[1:]
	}
	if d := strings.TrimLeft(t, "0123456789"); len(d) < len(t) {
		return d
	}
	return s
}

func positiveCheck(name string) func(b *builder, v value) error {
	return func(b *builder, v value) error {
		_, err := b.parseInt(name, v.str, true)
		return err
	}
}

// setWaitAllNodes takes --wait-all-nodes without a warning: Loam's nodes
// have no boot to wait for (no power saving), so every node of a job is
// ready when its script starts, which is what =1 asks for.
func setWaitAllNodes(b *builder, v value) error { return nil }

// checkWaitAllNodes: a number, and only 0 or 1.
func checkWaitAllNodes(b *builder, v value) error {
	n, err := b.parseInt("--wait-all-nodes", v.str, false)
	if err != nil {
		return err
	}
	if n > 1 {
		return b.clientError("Invalid --wait-all-nodes specification")
	}
	return nil
}

// checkExtraNodeInfo reads -B sockets[:cores[:threads]]: each a count, a
// range "min-max" or "*"; words after the third are not looked at.
func checkExtraNodeInfo(b *builder, v value) error {
	ordinals := []string{"first", "second", "third"}
	for k, part := range strings.SplitN(v.str, ":", 4) {
		if k == len(ordinals) {
			break
		}
		if !resourceRange(part) {
			return &Error{Code: ExitError, Lines: []string{
				b.p.prog() + ": error: Invalid numeric value \"" + part + "\" for " + ordinals[k] + " arg of -B."}}
		}
	}
	return nil
}

func resourceRange(s string) bool {
	if s == "*" {
		return true
	}
	lo, hi, isRange := strings.Cut(s, "-")
	if !allDigits(lo) {
		return false
	}
	return !isRange || hi == "*" || allDigits(hi)
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// rlimitNames are the limits --propagate names, with or without RLIMIT_.
var rlimitNames = map[string]bool{"AS": true, "CORE": true, "CPU": true, "DATA": true, "FSIZE": true,
	"MEMLOCK": true, "NOFILE": true, "NPROC": true, "RSS": true, "STACK": true}

// checkPropagate: ALL, NONE, or a list of limit names (upper case, as
// Slurm compares them).
func checkPropagate(b *builder, v value) error {
	if v.str == "" || v.str == "ALL" || v.str == "NONE" {
		return nil
	}
	for _, name := range strings.Split(v.str, ",") {
		if name == "" || rlimitNames[strings.TrimPrefix(name, "RLIMIT_")] {
			continue
		}
		return b.exitError("Bad rlimit name: "+name, "--propagate="+v.str+" is not valid.")
	}
	return nil
}

var hintWords = map[string]bool{"compute_bound": true, "memory_bound": true, "multithread": true,
	"nomultithread": true, "help": true}

// checkHint: a list of hint words, in any case.
func checkHint(b *builder, v value) error {
	for _, w := range strings.Split(v.str, ",") {
		if !hintWords[strings.ToLower(w)] {
			return b.exitError("unrecognized --hint argument \"" + w + "\", see --hint=help")
		}
	}
	return nil
}

var memBindWords = map[string]bool{"help": true, "p": true, "prefer": true, "sort": true, "nosort": true,
	"q": true, "quiet": true, "v": true, "verbose": true, "no": true, "none": true, "rank": true, "local": true}

// checkMemBind: a list of binding words and map_mem:/mask_mem: lists.
func checkMemBind(b *builder, v value) error {
	for _, w := range strings.Split(v.str, ",") {
		lw := strings.ToLower(w)
		switch {
		case memBindWords[lw]:
		case hasAnyPrefix(lw, "map_mem:", "mapmem:", "mask_mem:", "maskmem:"):
		default:
			return b.clientError("unrecognized --mem-bind argument \"%s\"", w)
		}
	}
	return nil
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// checkCPUFreq reads --cpu-freq=p1[-p2][:gov] as Slurm does
// (job.ParseCPUFreq), with its words.
func checkCPUFreq(b *builder, v value) error {
	if _, err := job.ParseCPUFreq(v.str); err != nil {
		e := &Error{Code: ExitClient}
		for _, l := range []string{err.Error(), "Invalid --cpu-freq argument"} {
			e.Lines = append(e.Lines, b.p.prog()+": error: "+l)
		}
		return e
	}
	return nil
}

// checkUID and checkGID refuse a user or group the submit host does not
// know, by name or number, when the caller handed in a way to look.
func checkUID(b *builder, v value) error {
	if b.p.UserKnown != nil && !b.p.UserKnown(v.str) {
		return b.clientError("Invalid --uid specification")
	}
	return nil
}

func checkGID(b *builder, v value) error {
	if b.p.GroupKnown != nil && !b.p.GroupKnown(v.str) {
		return b.clientError("Invalid --gid specification")
	}
	return nil
}
