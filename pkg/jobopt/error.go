package jobopt

import "strings"

// Exit statuses sbatch uses.
const (
	ExitClient = 255 // an option the client itself rejects
	ExitError  = 1   // script problems, fatal checks, what the controller refuses
)

// Error is a submission sbatch refuses before sending it: Lines are the
// exact lines it prints on standard error, Code its exit status.
type Error struct {
	Code  int
	Lines []string
}

func (e *Error) Error() string { return strings.Join(e.Lines, "\n") }
