package jobopt

import (
	"strings"
)

// bsubOptions is sbatch's table for #BSUB lines ("+c:e:J:m:M:n:o:q:W:x"),
// long names in sbatch's order.
func bsubOptions() []Option {
	return []Option{
		{Long: "cwd", Short: 'c', Arg: RequiredArg, set: to("chdir")},
		{Long: "error_file", Short: 'e', Arg: RequiredArg, set: to("error")},
		{Long: "job_name", Short: 'J', Arg: RequiredArg, set: to("job-name")},
		{Long: "hostname", Short: 'm', Arg: RequiredArg, set: setBSUBHosts},
		{Long: "memory_limit", Short: 'M', Arg: RequiredArg, set: setBSUBMemory},
		{Long: "output_file", Short: 'o', Arg: RequiredArg, set: to("output")},
		{Long: "queue_name", Short: 'q', Arg: RequiredArg, set: to("partition")},
		{Long: "time", Short: 'W', Arg: RequiredArg, set: to("time")},
		{Long: "exclusive", Short: 'x', Arg: NoArg, set: to("exclusive")},
		{Short: 'n', Arg: RequiredArg, set: setBSUBTasks},
	}
}

// setBSUBHosts is -m "host1 host2": LSF separates hosts with spaces.
func setBSUBHosts(b *builder, v value) error {
	return b.as("nodelist", strings.ReplaceAll(v.str, " ", ","), true)
}

// setBSUBMemory is -M, memory per CPU, in KB when it has no unit (LSF's).
func setBSUBMemory(b *builder, v value) error {
	s := v.str
	if s != "" && '0' <= s[len(s)-1] && s[len(s)-1] <= '9' {
		s += "K"
	}
	return b.as("mem-per-cpu", s, true)
}

// setBSUBTasks is -n [min,]max: Slurm takes the maximum.
func setBSUBTasks(b *builder, v value) error {
	s := v.str
	if _, max, ok := strings.Cut(s, ","); ok {
		if max == "" {
			return b.exitError("#BSUB -n format not correct given: '" + v.str + "'")
		}
		s = max
	}
	return b.as("ntasks", s, true)
}

// pbsOptions is sbatch's table for #PBS lines
// ("+a:A:c:C:e:hIj:J:k:l:m:M:N:o:p:q:r:S:t:u:v:VW:z"), long names in
// sbatch's order. Options without a set function are read and ignored.
func pbsOptions() []Option {
	return []Option{
		{Long: "start_time", Short: 'a', Arg: RequiredArg, set: to("begin")},
		{Long: "account", Short: 'A', Arg: RequiredArg, set: to("account")},
		{Long: "checkpoint", Short: 'c', Arg: RequiredArg},
		{Long: "working_dir", Short: 'C', Arg: RequiredArg},
		{Long: "error", Short: 'e', Arg: RequiredArg, set: to("error")},
		{Long: "hold", Short: 'h', Arg: NoArg, set: to("hold")},
		{Long: "interactive", Short: 'I', Arg: NoArg},
		{Long: "join", Arg: OptionalArg}, // -j takes a value, --join may
		{Long: "job_array", Short: 'J', Arg: RequiredArg, set: to("array")},
		{Long: "keep", Short: 'k', Arg: RequiredArg},
		{Long: "resource_list", Short: 'l', Arg: RequiredArg, set: setPBSResources},
		{Long: "mail_options", Short: 'm', Arg: RequiredArg, set: setPBSMailType},
		{Long: "mail_user_list", Short: 'M', Arg: RequiredArg, set: to("mail-user")},
		{Long: "job_name", Short: 'N', Arg: RequiredArg, set: to("job-name")},
		{Long: "out", Short: 'o', Arg: RequiredArg, set: to("output")},
		{Long: "priority", Short: 'p', Arg: RequiredArg, set: to("nice")},
		{Long: "destination", Short: 'q', Arg: RequiredArg, set: to("partition")},
		{Long: "rerunable", Short: 'r', Arg: RequiredArg},
		{Long: "script_path", Short: 'S', Arg: RequiredArg},
		{Long: "array", Short: 't', Arg: RequiredArg, set: to("array")},
		{Long: "running_user", Short: 'u', Arg: RequiredArg},
		{Long: "variable_list", Short: 'v', Arg: RequiredArg, set: setPBSVariables},
		{Long: "all_env", Short: 'V', Arg: NoArg},
		{Long: "attributes", Short: 'W', Arg: RequiredArg, set: setPBSAttributes},
		{Long: "no_std", Short: 'z', Arg: NoArg},
		{Short: 'j', Arg: RequiredArg},
	}
}

// setPBSMailType is -m with Torque's letters: b(egin), e(nd), a(bort), and
// n(one), which wins. A value with none of them is --mail-type without a
// value, which sbatch refuses.
func setPBSMailType(b *builder, v value) error {
	var types []string
	for _, t := range []struct{ letter, name string }{{"bB", "BEGIN"}, {"eE", "END"}, {"aA", "FAIL"}} {
		if strings.ContainsAny(v.str, t.letter) {
			types = append(types, t.name)
		}
	}
	if strings.ContainsAny(v.str, "nN") {
		types = []string{"NONE"}
	}
	return b.as("mail-type", strings.Join(types, ","), true)
}

// setPBSVariables is -v VAR[=value],...: each occurrence adds to the
// --export list set so far.
func setPBSVariables(b *builder, v value) error {
	s := v.str
	if b.req.Export != nil {
		s = b.exportSpec + "," + s
	}
	return b.as("export", s, true)
}

// setPBSAttributes is -W attribute=value: umask= and depend= (in any case)
// are read, other attributes ignored.
func setPBSAttributes(b *builder, v value) error {
	name, val, _ := strings.Cut(v.str, "=")
	switch strings.ToLower(name) {
	case "umask":
		return b.setPBSUmask(val)
	case "depend":
		return b.as("dependency", val, true)
	}
	return nil
}

// setPBSUmask keeps -W umask= (read as C's strtol with base 0: 022 is
// octal, 0x12 hex) for the job's SLURM_UMASK.
func (b *builder) setPBSUmask(s string) error {
	n := int32(cStrtolBase0(s))
	if n < 0 || n > 0o777 {
		return b.clientError("Invalid -W umask= specification")
	}
	m := int(n)
	b.pbsUmask = &m
	return nil
}

// cStrtolBase0 is C's strtol(s, NULL, 0): leading space, a sign, then a
// hexadecimal ("0x"), octal ("0") or decimal number, as far as it goes;
// 0 when there is none; clamped to the 64-bit range.
func cStrtolBase0(s string) int64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	base := uint64(10)
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && digitValue(s[2]) < 16:
		base, s = 16, s[2:]
	case len(s) > 0 && s[0] == '0':
		base = 8
	}
	var n uint64
	for i := 0; i < len(s) && digitValue(s[i]) < base; i++ {
		if n > (1<<63)/base {
			n = 1 << 63 // past any range; the rest only matters for its length
			continue
		}
		n = min(n*base+digitValue(s[i]), 1<<63)
	}
	switch {
	case neg && n >= 1<<63:
		return -1 << 63
	case n >= 1<<63:
		return 1<<63 - 1
	case neg:
		return -int64(n)
	}
	return int64(n)
}

// digitValue is c's value as a digit of any base up to 36; 99 when c is no
// digit.
func digitValue(c byte) uint64 {
	switch {
	case '0' <= c && c <= '9':
		return uint64(c - '0')
	case 'a' <= c && c <= 'z':
		return uint64(c-'a') + 10
	case 'A' <= c && c <= 'Z':
		return uint64(c-'A') + 10
	}
	return 99
}
