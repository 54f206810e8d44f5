package job

import (
	"fmt"
	"strconv"
	"strings"
)

// ExitCode is a job's exit as sacct and scontrol print it: the exit status of
// the batch script and the signal that killed it, "3:0" or "0:15".
type ExitCode struct {
	Status int `json:"status"`
	Signal int `json:"signal"`
}

// FromWaitStatus splits a wait(2) status the way Slurm does: a normal exit
// gives status:0, a death by signal gives 0:signal.
func FromWaitStatus(ws int) ExitCode {
	if sig := ws & 0x7f; sig != 0 && sig != 0x7f {
		return ExitCode{Signal: sig}
	}
	return ExitCode{Status: (ws >> 8) & 0xff}
}

// String prints "status:signal".
func (e ExitCode) String() string { return fmt.Sprintf("%d:%d", e.Status, e.Signal) }

// ParseExitCode parses "status:signal" as printed by String.
func ParseExitCode(s string) (ExitCode, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return ExitCode{}, fmt.Errorf("invalid exit code %q: want status:signal", s)
	}
	st, err1 := strconv.Atoi(a)
	sig, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || st < 0 || st > 255 || sig < 0 || sig > 255 {
		return ExitCode{}, fmt.Errorf("invalid exit code %q: want status:signal, each 0-255", s)
	}
	return ExitCode{Status: st, Signal: sig}, nil
}
