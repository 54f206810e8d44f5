package command

import (
	"math"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// fieldOutcome says what update job does after reading one KEY=VALUE.
type fieldOutcome int

const (
	fieldSet            fieldOutcome = iota // the change is recorded
	fieldAbort                              // message, exit 1, nothing sent
	fieldAbortClean                         // message, exit 0, nothing sent (Slurm's range parser)
	fieldSkipped                            // message, the key is ignored, the rest goes on
	fieldSkippedCounted                     // as fieldSkipped, yet it counts as a change (no "No changes specified")
)

// fieldMessage prints msg as how asks and reports whether the update
// goes on.
func (s *scontrol) fieldMessage(msg string, how fieldOutcome) bool {
	switch how {
	case fieldAbort:
		s.fail("%s", msg)
		return false
	case fieldAbortClean:
		if !s.quiet {
			s.w.raw(msg)
		}
		return false
	}
	if !s.quiet {
		s.w.raw(msg)
	}
	return true
}

// setJobField applies one KEY=VALUE; for a bad one it returns scontrol's
// message and what becomes of the update.
func (s *scontrol) setJobField(u *api.JobUpdate, a updateArg, ids []string) (string, fieldOutcome) {
	t, v := a.tag, a.val
	switch {
	case abbrev(t, "TimeLimit", 5):
		return aborted(s.setLimit(&u.TimeLimit, v, ids, "TimeLimit"))
	case abbrev(t, "TimeMin", 5):
		return aborted(s.setLimit(&u.TimeMinimum, v, nil, "TimeMin"))
	case abbrev(t, "EndTime", 2):
		tm, err := slurmtime.ParseTime(v, s.env.Now())
		if err != nil {
			// Slurm's scontrol counts EndTime= whatever parse_time made
			// of it, and the controller changes nothing for a zero end.
			return timeSpecError(v), fieldSkippedCounted
		}
		end := tm.Unix()
		u.EndTime = &end
	case abbrev(t, "Priority", 2):
		n, ok := parseUint(v, 32)
		if !ok {
			return "scontrol: error: Invalid Priority value: " + v + "\n", fieldAbort
		}
		u.Priority = &n
	case abbrev(t, "Nice", 2):
		n, err := strconv.Atoi(v)
		if err != nil || n > 2147483645 || n < -2147483645 {
			return "scontrol: error: Nice value out of range (+/- 2147483645). Value ignored\n", fieldAbort
		}
		u.Nice = &n
	case abbrev(t, "NumNodes", 8), abbrev(t, "ReqNodes", 8):
		return setNodeCount(u, v)
	case abbrev(t, "NumTasks", 8), abbrev(t, "ReqProcs", 8):
		n, ok := parseUint(v, 32)
		if !ok {
			return "scontrol: error: Invalid NumTasks value: " + v + "\n", fieldAbort
		}
		tasks := int(n)
		u.NumTasks = &tasks
	case abbrev(t, "MinMemoryNode", 10), abbrev(t, "MinMemoryCPU", 10):
		return setMemory(u, t, v)
	case abbrev(t, "MinTmpDiskNode", 5):
		n, ok := parseUint32C(v)
		if !ok {
			return "scontrol: error: Invalid MinTmpDiskNode value: " + v + "\n", fieldAbort
		}
		u.MinTmpDisk = &n
	case abbrev(t, "ArrayTaskThrottle", 10):
		// Slurm reads a leading number (none: 0, no throttle).
		n, _ := strtol(v)
		if n < 0 {
			return "scontrol: error: Invalid ArrayTaskThrottle value\n", fieldAbort
		}
		u.ArrayMaxTasks = &n
	case abbrev(t, "StartTime", 2), abbrev(t, "EligibleTime", 2), abbrev(t, "Deadline", 3):
		return s.setTime(u, t, v)
	case abbrev(t, "Switches", 5):
		setSwitches(u, v) // scontrol_update_switches.go
	case abbrev(t, "wait-for-switch", 5):
		return setSwitchWait(u, v)
	case abbrev(t, "Contiguous", 3):
		return setContiguous(u, v)
	default:
		return s.setJobLayout(u, a) // scontrol_update_layout.go
	}
	return "", fieldSet
}

// setContiguous reads Contiguous= as Slurm's scontrol does
// (yesNoUint16): a prefix of YES or NO, else a 16-bit number other than
// Slurm's NO_VAL16 and INFINITE16; nothing is 0 (the peer clears the flag
// for "Contiguous="). Any number but 0 sets the flag (Slurm shows the
// number; Loam shows 1).
func setContiguous(u *api.JobUpdate, v string) (string, fieldOutcome) {
	n, ok := yesNoUint16(v)
	if !ok {
		return "scontrol: error: Invalid Contiguous value: " + v + "\n", fieldAbort
	}
	u.Contiguous = &n
	return "", fieldSet
}

func aborted(msg string) (string, fieldOutcome) {
	if msg != "" {
		return msg, fieldAbort
	}
	return "", fieldSet
}

// setJobText applies the keys whose value is taken as given.
func setJobText(u *api.JobUpdate, a updateArg) (string, fieldOutcome) {
	t, v := a.tag, a.val
	switch {
	case abbrev(t, "Name", 2), abbrev(t, "JobName", 4):
		u.Name = &v
	case abbrev(t, "Comment", 3):
		u.Comment = &v
	case abbrev(t, "AdminComment", 6):
		u.AdminComment = &v
	case abbrev(t, "TasksPerNode", 2):
		n, ok := parseUint16C(v)
		if !ok {
			return "scontrol: error: Invalid TasksPerNode value: " + v + "\n", fieldAbort
		}
		c := int(n)
		u.TasksPerNode = &c
	case abbrev(t, "WorkDir", 2):
		u.WorkDir = &v

	case abbrev(t, "Partition", 2):
		u.Partition = &v
	case abbrev(t, "QOS", 2):
		u.QOS = &v
	case abbrev(t, "Account", 1):
		u.Account = &v
	case abbrev(t, "Dependency", 1):
		u.Dependency = &v
	case abbrev(t, "Features", 1):
		u.Features = &v
	case abbrev(t, "Prefer", 3):
		u.Prefer = &v
	case abbrev(t, "ExcNodeList", 3):
		u.ExcludedNodes = &v
	case abbrev(t, "NodeList", 8), abbrev(t, "ReqNodeList", 8):
		u.RequiredNodes = &v
	case abbrev(t, "Gres", 2), abbrev(t, "TresPerNode", 8):
		v = strings.TrimPrefix(v, "gres:")
		u.GRES = &v
	case abbrev(t, "ReservationName", 3):
		u.Reservation = &v
	case abbrev(t, "Licenses", 3):
		u.Licenses = &v
	case abbrev(t, "StdOut", 6):
		u.StdOut = &v
	case abbrev(t, "MailUser", 5):
		u.MailUser = &v
	case abbrev(t, "MailType", 5):
		if _, err := job.ParseMailType(v); err != nil {
			return "Invalid MailType: " + v + "\n", fieldAbort
		}
		u.MailType = &v
	case abbrev(t, "Requeue", 4):
		n, ok := parseUint(v, 16)
		if !ok {
			return "scontrol: error: Invalid Requeue value: " + v + "\n", fieldAbort
		}
		r := n != 0
		u.Requeue = &r
	case abbrev(t, "CPUsPerTask", 9):
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return "scontrol: error: Invalid CPUsPerTask value: " + v + "\n", fieldAbort
		}
		u.CPUsPerTask = &n
	case abbrev(t, "NumCPUs", 6):
		return setNumCPUs(u, v)
	case abbrev(t, "MinCPUsNode", 4):
		n, ok := parseUint(v, 16)
		if !ok {
			return "scontrol: error: Invalid MinCPUsNode value: " + v + "\n", fieldAbort
		}
		c := int(n) // 0 changes nothing, without an error (the peer)
		u.MinCPUsNode = &c
	default:
		return setJobRecorded(u, a) // scontrol_update_recorded.go
	}
	return "", fieldSet
}

// parseUint reads a whole unsigned decimal that fits in bits, as Slurm's
// parse_uint32/parse_uint16 (no sign, no suffix, nothing after it).
func parseUint(v string, bits int) (int64, bool) {
	if v == "" || v[0] < '0' || v[0] > '9' {
		return 0, false
	}
	n, err := strconv.ParseUint(v, 10, bits)
	if err != nil {
		return 0, false
	}
	return int64(n), true
}

// parseUint32C is Slurm's parse_uint32 as written, over strtoll: blanks
// and a sign may lead, nothing may follow, and an empty value is 0
// (MinTmpDiskNode= clears --tmp on the peer); negative values and
// NO_VAL (4294967294) and up are refused.
func parseUint32C(v string) (int64, bool) { return parseUintC(v, 4294967294) }

// parseUint16C is Slurm's parse_uint16, the same over 16 bits: NO_VAL16
// (65534) and up are refused.
func parseUint16C(v string) (int64, bool) { return parseUintC(v, 65534) }

// parseUintC reads v as parse_uint32 and parse_uint16 do, refusing noVal
// and up.
func parseUintC(v string, noVal int64) (int64, bool) {
	s := strings.TrimLeft(v, " \t\n\v\f\r")
	if v == "" {
		return 0, true
	}
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false // no digits (strtoll stops at the start), or text after them
	}
	s = strings.TrimLeft(s, "0")
	if len(s) > 10 {
		return 0, false
	}
	n, _ := strconv.ParseInt("0"+s, 10, 64)
	if neg && n != 0 || n >= noVal {
		return 0, false
	}
	return n, true
}

// setNodeCount reads NumNodes=N or N-M. Slurm's range parser reports a
// bad value and scontrol then sends nothing, yet exits 0; 0 and a
// maximum below the minimum go to the controller, which refuses them.
// A single count leaves the job's maximum as it is (the peer's -N2 -n2
// job updated to NumNodes=1 shows NumNodes=1-2).
func setNodeCount(u *api.JobUpdate, v string) (string, fieldOutcome) {
	bad := "scontrol: error: Invalid numeric value \"" + v + "\" for requested node count.\n"
	lo, hi, ranged := strings.Cut(v, "-")
	minN, ok := parseUint(lo, 31)
	if !ok {
		return bad, fieldAbortClean
	}
	mn := int(minN)
	u.MinNodes = &mn
	if ranged {
		maxN, ok := parseUint(hi, 31)
		if !ok {
			return bad, fieldAbortClean
		}
		mx := int(maxN)
		u.MaxNodes = &mx
	}
	return "", fieldSet
}

// setNumCPUs reads NumCPUs=N or N-M as Slurm's get_resource_arg_range
// (k and m multiply by 1024 and 1048576; "" and "*" are 1-INT_MAX): the
// least must be positive and the most, when given, no smaller.
func setNumCPUs(u *api.JobUpdate, v string) (string, fieldOutcome) {
	lo, hi, msg := resourceArgRange(v, "NumCPUs")
	if msg != "" || lo <= 0 || (hi != 0 && hi < lo) {
		return msg + "scontrol: error: Invalid NumCPUs value: " + v + "\n", fieldAbort
	}
	u.NumCPUs = &lo
	if hi != 0 {
		u.MaxCPUs = &hi
	}
	return "", fieldSet
}

// resourceArgRange is Slurm's get_resource_arg_range: "N" or "N-M", each
// a number as strtol reads it with an optional k or m multiplier. msg is
// the error line Slurm prints for what it cannot read; max is 0 when
// only N is given.
func resourceArgRange(arg, what string) (lo, hi int, msg string) {
	if arg == "" || arg[0] == '*' {
		return 1, math.MaxInt32, ""
	}
	invalid := "scontrol: error: Invalid numeric value \"" + arg + "\" for " + what + ".\n"
	number := func(s string) (int64, string) {
		v, n := job.Strtol(s)
		if n < len(s) {
			switch s[n] {
			case 'k', 'K':
				v, n = v*1024, n+1
			case 'm', 'M':
				v, n = v*1048576, n+1
			}
		}
		return v, s[n:]
	}
	v, rest := number(arg)
	if (rest != "" && rest[0] != '-') || v < 0 {
		return 0, 0, invalid
	}
	if v > math.MaxInt32 {
		return 0, 0, "scontrol: error: Numeric argument (" + strconv.FormatInt(v, 10) + ") to big for " + what + ".\n"
	}
	if rest == "" {
		return int(v), 0, ""
	}
	w, rest := number(rest[1:])
	if (rest != "" && rest[0] != '-') || w <= 0 {
		return 0, 0, invalid
	}
	if w > math.MaxInt32 {
		return 0, 0, "scontrol: error: Numeric argument (" + strconv.FormatInt(w, 10) + ") to big for " + what + ".\n"
	}
	return int(v), int(w), ""
}

// setMemory reads MinMemoryNode= and MinMemoryCPU=: megabytes as a plain
// number (Slurm refuses "2G" here).
func setMemory(u *api.JobUpdate, tag, v string) (string, fieldOutcome) {
	perCPU := abbrev(tag, "MinMemoryCPU", 10)
	n, ok := parseUint(v, 63)
	if !ok {
		name := "MinMemoryNode"
		if perCPU {
			name = "MinMemoryCPU"
		}
		return "scontrol: error: Invalid " + name + " value: " + v + "\n", fieldAbort
	}
	if perCPU {
		u.MemPerCPU = &n
	} else {
		u.MemPerNode = &n
	}
	return "", fieldSet
}

// setTime reads StartTime=/EligibleTime= and Deadline=. A value Slurm's
// time parser cannot read is reported and ignored, the rest of the update
// goes on; a start time already past becomes now.
func (s *scontrol) setTime(u *api.JobUpdate, tag, v string) (string, fieldOutcome) {
	now := s.env.Now()
	tm, err := slurmtime.ParseTime(v, now)
	if err != nil {
		return timeSpecError(v), fieldSkipped
	}
	sec := tm.Unix()
	if abbrev(tag, "Deadline", 3) {
		u.Deadline = &sec
		return "", fieldSet
	}
	sec = max(sec, now.Unix())
	u.BeginTime = &sec
	return "", fieldSet
}
