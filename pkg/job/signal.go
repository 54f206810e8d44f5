package job

import (
	"fmt"
	"strconv"
	"strings"
)

// Signal is a --signal request: send signal Number to the job Seconds before
// its time limit. Batch sends it to the batch shell only ("B:"), Reservation
// also when the job's reservation ends ("R:").
type Signal struct {
	Number      int  `json:"number"`
	Seconds     int  `json:"seconds"`
	Batch       bool `json:"batch,omitempty"`
	Reservation bool `json:"reservation,omitempty"`
}

// DefaultSignalSeconds is the warning time when the spec has no "@secs".
const DefaultSignalSeconds = 60

// signalNames is Slurm's table of signal names, in its order.
var signalNames = []struct {
	name string
	num  int
}{
	{"HUP", 1}, {"INT", 2}, {"QUIT", 3}, {"ABRT", 6}, {"KILL", 9},
	{"ALRM", 14}, {"TERM", 15}, {"USR1", 10}, {"USR2", 12}, {"URG", 23},
	{"CONT", 18}, {"STOP", 19}, {"TSTP", 20}, {"TTIN", 21}, {"TTOU", 22},
	{"XCPU", 24},
}

// ParseSignal parses "[{R|B}:]SIG[@SECS]" as sbatch does: SIG is a number
// or a name with or without "SIG", in any case (USR1, sigterm, 10); "BR"
// and "RB" both set both flags; SECS is 0-65535 and defaults to 60.
func ParseSignal(spec string) (Signal, error) {
	var sg Signal
	s := spec
	if hasPrefixFold(s, "R") {
		sg.Reservation, s = true, s[1:]
	}
	if hasPrefixFold(s, "B") {
		sg.Batch, s = true, s[1:]
	}
	if hasPrefixFold(s, "R") {
		sg.Reservation, s = true, s[1:]
	}
	s = strings.TrimPrefix(s, ":")
	name, secs, hasSecs := strings.Cut(s, "@")
	// Slurm stores the number in 16 bits before checking it.
	sg.Number = int(uint16(signalNumber(name)))
	if sg.Number < 1 {
		return Signal{}, fmt.Errorf("invalid signal %q in %q", name, spec)
	}
	sg.Seconds = DefaultSignalSeconds
	if hasSecs {
		v, n := Strtol(secs)
		if v < 0 || v > 0xffff || n != len(secs) {
			return Signal{}, fmt.Errorf("invalid signal time %q in %q", secs, spec)
		}
		sg.Seconds = int(v)
	}
	return sg, nil
}

// signalNumber is Slurm's sig_name2num: 0 for an unknown name.
func signalNumber(name string) int64 {
	if v, n := Strtol(name); n > 0 {
		if strings.TrimLeft(name[n:], " \t\n\v\f\r") == "" {
			return v
		}
		return 0
	}
	s := strings.TrimLeft(name, " \t\n\v\f\r")
	if hasPrefixFold(s, "SIG") {
		s = s[3:]
	}
	for _, sn := range signalNames {
		if hasPrefixFold(s, sn.name) && strings.TrimLeft(s[len(sn.name):], " \t\n\v\f\r") == "" {
			return int64(sn.num)
		}
	}
	return 0
}

// SignalName returns Slurm's name for signal n ("USR1"), or its number.
func SignalName(n int) string {
	for _, sn := range signalNames {
		if sn.num == n {
			return sn.name
		}
	}
	return strconv.Itoa(n)
}

// String prints the spec as Slurm writes it back: "B:USR1@120", "TERM".
func (sg Signal) String() string {
	var b strings.Builder
	if sg.Reservation {
		b.WriteString("R")
	}
	if sg.Batch {
		b.WriteString("B")
	}
	if sg.Reservation || sg.Batch {
		b.WriteString(":")
	}
	b.WriteString(SignalName(sg.Number))
	if sg.Seconds != DefaultSignalSeconds {
		fmt.Fprintf(&b, "@%d", sg.Seconds)
	}
	return b.String()
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
