package job

import (
	"errors"
	"fmt"
	"strings"
)

// MailType is the set of events --mail-type asks mail for.
type MailType uint16

// The mail events, as Slurm numbers them.
const (
	MailBegin         MailType = 0x0001
	MailEnd           MailType = 0x0002
	MailFail          MailType = 0x0004
	MailRequeue       MailType = 0x0008
	MailTimeLimit     MailType = 0x0010
	MailTimeLimit90   MailType = 0x0020
	MailTimeLimit80   MailType = 0x0040
	MailTimeLimit50   MailType = 0x0080
	MailStageOut      MailType = 0x0100
	MailArrayTasks    MailType = 0x0200
	MailInvalidDepend MailType = 0x0400
	// MailPreempt is Loam's: mail when the job is preempted, with the
	// reason, the checkpoint status and the expected restart. Slurm has no
	// such type; ALL keeps Slurm's meaning, and the preemption notice also
	// goes to jobs that asked for REQUEUE, END or FAIL mail.
	MailPreempt MailType = 0x8000

	// MailAll is what ALL means: not the time limit warnings, not per task.
	MailAll = MailInvalidDepend | MailBegin | MailEnd | MailFail | MailRequeue | MailStageOut
)

// mailNames lists the names in the order Slurm prints them.
var mailNames = []struct {
	name string
	bit  MailType
}{
	{"ARRAY_TASKS", MailArrayTasks}, {"INVALID_DEPEND", MailInvalidDepend},
	{"BEGIN", MailBegin}, {"END", MailEnd}, {"FAIL", MailFail},
	{"REQUEUE", MailRequeue}, {"STAGE_OUT", MailStageOut},
	{"TIME_LIMIT_50", MailTimeLimit50}, {"TIME_LIMIT_80", MailTimeLimit80},
	{"TIME_LIMIT_90", MailTimeLimit90}, {"TIME_LIMIT", MailTimeLimit},
	{"PREEMPT", MailPreempt},
}

// ParseMailType parses a --mail-type list as sbatch does: names in any case,
// comma-separated; unknown names are skipped as long as one name is known;
// NONE stops the scan and yields no events.
func ParseMailType(spec string) (MailType, error) {
	var m MailType
	for _, tok := range strings.Split(spec, ",") {
		if strings.EqualFold(tok, "NONE") {
			return 0, nil
		}
		if strings.EqualFold(tok, "ALL") {
			m |= MailAll
			continue
		}
		for _, mn := range mailNames {
			if strings.EqualFold(tok, mn.name) {
				m |= mn.bit
			}
		}
	}
	if m == 0 {
		return 0, fmt.Errorf("invalid mail type %q", spec)
	}
	return m, nil
}

// String prints the set as scontrol's MailType= does: "END,FAIL", "NONE".
func (m MailType) String() string {
	if m == 0 {
		return "NONE"
	}
	var names []string
	for _, mn := range mailNames {
		if m&mn.bit != 0 {
			names = append(names, mn.name)
		}
	}
	return strings.Join(names, ",")
}

// MarshalText encodes the set as String prints it.
func (m MailType) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText decodes what MarshalText wrote.
func (m *MailType) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		return errors.New("empty mail type")
	}
	v, err := ParseMailType(string(b))
	*m = v
	return err
}
