package slurmconf

import (
	"strconv"
	"strings"
)

// signalNames are the Linux signal names by number, as Slurm's --signal
// accepts them.
var signalNames = []string{1: "HUP", 2: "INT", 3: "QUIT", 4: "ILL", 5: "TRAP",
	6: "ABRT", 7: "BUS", 8: "FPE", 9: "KILL", 10: "USR1", 11: "SEGV", 12: "USR2",
	13: "PIPE", 14: "ALRM", 15: "TERM", 16: "STKFLT", 17: "CHLD", 18: "CONT",
	19: "STOP", 20: "TSTP", 21: "TTIN", 22: "TTOU", 23: "URG", 24: "XCPU",
	25: "XFSZ", 26: "VTALRM", 27: "PROF", 28: "WINCH", 29: "IO", 30: "PWR",
	31: "SYS"}

// SignalNumber returns the number of a signal name as stored in
// Queue.CheckpointSignal ("USR1" is 10), or 0 for an unknown name.
func SignalNumber(name string) int {
	for n, s := range signalNames {
		if s != "" && s == name {
			return n
		}
	}
	return 0
}

// signal decodes a signal a job can catch: a name with or without SIG, or
// its number. It is stored by name.
func (x *dec) signal(key string, dst *string) {
	f, ok := x.get(key)
	if !ok {
		return
	}
	name := strings.TrimPrefix(strings.ToUpper(f.Value), "SIG")
	if n, err := strconv.Atoi(f.Value); err == nil && n > 0 && n < len(signalNames) {
		name = signalNames[n]
	}
	switch n := SignalNumber(name); {
	case n == 0:
		x.bad(f, "%q is not a signal name or number", f.Value)
	case name == "KILL" || name == "STOP":
		x.bad(f, "%s cannot be caught, so it cannot ask a job to checkpoint", name)
	default:
		*dst = name
	}
}
