package command

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// PartitionController is the controller's partition administration API
// (scontrol update, create and delete partition).
type PartitionController interface {
	UpdatePartition(ctx context.Context, u *api.PartitionUpdate) (*api.PartitionsResponse, error)
	DeletePartition(ctx context.Context, d *api.PartitionDelete) error
}

// partController returns the controller's partition API.
func (s *scontrol) partController() (PartitionController, bool) {
	c, ok := s.controller()
	if !ok {
		return nil, false
	}
	pc, ok := c.(PartitionController)
	if !ok {
		s.fail("scontrol: error: %s\n", api.CodeNotSupported.Text())
	}
	return pc, ok
}

// partRefused is how a refused partition key ends: with Slurm's
// "slurm_update error: No error" after the message, or without it.
const (
	partNoErrorLine = "slurm_update error: No error\n"
	partAborted     = "\nscontrol: error: Request aborted\n"
)

// parsePartitionArgs reads scontrol's partition KEY=VALUE words into u.
// It returns the text scontrol prints for the first refused word, and
// whether scontrol goes on regardless (MinNodes, as Slurm 22.05 does).
func parsePartitionArgs(args []string, u *api.PartitionUpdate, w func(string)) string {
	for _, a := range args {
		tag, val, ok := strings.Cut(a, "=")
		if !ok {
			return "scontrol: error: Invalid input: " + a + "  Request aborted\n"
		}
		if msg := setPartitionKey(u, tag, val, a, w); msg != "" {
			return msg
		}
	}
	return ""
}

// setPartitionKey applies one KEY=VALUE; tag abbreviations follow
// Slurm's scontrol.
func setPartitionKey(u *api.PartitionUpdate, tag, val, raw string, w func(string)) string {
	up := strings.ToUpper(val)
	switch {
	case abbrev(tag, "PartitionName", 3):
		u.Name = val
	case abbrev(tag, "State", 2):
		if up != "UP" && up != "DOWN" && up != "DRAIN" && up != "INACTIVE" {
			return "scontrol: error: Invalid input: " + raw + "\nscontrol: error: Acceptable State values are UP, DOWN, DRAIN and INACTIVE\n" + partNoErrorLine
		}
		u.State = &up
	case abbrev(tag, "MaxTime", 4), abbrev(tag, "DefaultTime", 8):
		secs, ok := partSeconds(val)
		if !ok {
			return "scontrol: error: Invalid input " + raw + "\n" + partNoErrorLine
		}
		if abbrev(tag, "MaxTime", 4) {
			u.MaxTime = &secs
		} else {
			u.DefaultTime = &secs
		}
	case abbrev(tag, "MaxNodes", 4):
		n, ok := partCount(up)
		if !ok {
			return "scontrol: error: Invalid numeric value \"" + val + "\" for MaxNodes.\n"
		}
		u.MaxNodes = &n
	case abbrev(tag, "MinNodes", 2):
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil || n < 0 {
			w("scontrol: error: \"" + val + "\" is not a valid node count\n") // Slurm goes on
			break
		}
		u.MinNodes = &n
	case abbrev(tag, "Default", 7), abbrev(tag, "Hidden", 1), abbrev(tag, "LLN", 1):
		return setPartitionYesNo(u, tag, up, raw)
	case abbrev(tag, "PriorityTier", 9), abbrev(tag, "PriorityJobFactor", 9), abbrev(tag, "Priority", 3):
		return setPartitionPriority(u, tag, val)
	case abbrev(tag, "Alternate", 3):
		u.Alternate = &val // empty clears it
	case abbrev(tag, "AllowGroups", 6):
		list := strtok(val, ",")
		u.AllowGroups = &list // ALL or empty opens the partition to everyone
	case abbrev(tag, "AllowAccounts", 6), abbrev(tag, "DenyAccounts", 5):
		list := strtok(val, ",")
		if up == "ALL" {
			list = []string{}
		}
		if abbrev(tag, "AllowAccounts", 6) {
			u.AllowAccounts = &list
		} else {
			u.DenyAccounts = &list
		}
	case abbrev(tag, "GraceTime", 5):
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil || n < 0 {
			return "scontrol: error: Invalid GraceTime value: " + val + "\n" + partNoErrorLine
		}
		u.GraceTime = &n
	case abbrev(tag, "Nodes", 1):
		u.Nodes = &val
	case abbrev(tag, "OverSubscribe", 5), abbrev(tag, "Shared", 2):
		if !validOverSubscribe(up) {
			return "scontrol: error: Invalid input: " + raw + "\nscontrol: error: Acceptable OverSubscribe values are NO, EXCLUSIVE, YES:#, and FORCE:#\n" + partNoErrorLine
		}
		u.OverSubscribe = &up
	default:
		if msg, known := setPartitionLimit(&u.PartitionLimits, tag, val, raw); known { // scontrol_partlimits.go
			return msg
		}
		return "scontrol: error: Update of this parameter is not supported: " + raw + "\n" + partAborted + partNoErrorLine
	}
	return ""
}

// setPartitionYesNo is Default=, Hidden= and LLN=.
func setPartitionYesNo(u *api.PartitionUpdate, tag, up, raw string) string {
	name, dst := "Default", &u.Default
	switch {
	case abbrev(tag, "Hidden", 1):
		name, dst = "Hidden", &u.Hidden
	case abbrev(tag, "LLN", 1):
		name, dst = "LLN", &u.LLN
	}
	if up != "YES" && up != "NO" {
		return "scontrol: error: Invalid input: " + raw + "\nscontrol: error: Acceptable " + name + " values are YES and NO\n" + partNoErrorLine
	}
	yes := up == "YES"
	*dst = &yes
	return ""
}

// setPartitionPriority is PriorityTier=, PriorityJobFactor= and the older
// Priority=, which sets both, as Slurm 22.05's scontrol does.
func setPartitionPriority(u *api.PartitionUpdate, tag, val string) string {
	name := "Priority"
	switch {
	case abbrev(tag, "PriorityTier", 9):
		name = "PriorityTier"
	case abbrev(tag, "PriorityJobFactor", 9):
		name = "PriorityJobFactor"
	}
	n, err := strconv.Atoi(val)
	if err != nil || n < 0 || n > 65533 {
		return "scontrol: error: Invalid " + name + " value: " + val + "\n" + partNoErrorLine
	}
	if name != "PriorityJobFactor" {
		u.PriorityTier = &n
	}
	if name != "PriorityTier" {
		u.PriorityJobFactor = &n
	}
	return ""
}

// partSeconds reads MaxTime/DefaultTime as Slurm's time_str2mins does.
func partSeconds(v string) (int64, bool) {
	d, err := slurmtime.ParseTimeLimit(v)
	if err != nil {
		return 0, false
	}
	if d == slurmtime.Unlimited {
		return api.UnlimitedSeconds, true
	}
	return int64(d / time.Second), true
}

// partCount reads a node count; UNLIMITED and INFINITE are -1.
func partCount(up string) (int64, bool) {
	if up == "UNLIMITED" || up == "INFINITE" {
		return -1, true
	}
	n, err := strconv.ParseInt(up, 10, 64)
	return n, err == nil && n >= 0
}

func validOverSubscribe(up string) bool {
	mode, count, hasCount := strings.Cut(up, ":")
	switch mode {
	case "NO", "EXCLUSIVE":
		return !hasCount
	case "YES", "FORCE":
		if !hasCount {
			return true
		}
		n, err := strconv.Atoi(count)
		return err == nil && n > 0
	}
	return false
}

// updatePartition is scontrol update PartitionName=P KEY=VALUE....
func (s *scontrol) updatePartition(args []string) {
	var u api.PartitionUpdate
	if msg := parsePartitionArgs(args, &u, func(m string) { s.w.raw(m) }); msg != "" {
		s.fail("%s", msg)
		return
	}
	if u.Empty() {
		if !s.partWarned(args) {
			s.fail("scontrol: error: No changes specified\n")
		}
		return
	}
	pc, ok := s.partController()
	if !ok {
		return
	}
	if _, err := pc.UpdatePartition(s.ctx, &u); err != nil {
		s.fail("slurm_update error: %s\n", errText(err))
	}
}

// partWarned tells whether an update without changes had a MinNodes that
// was refused: Slurm warns and ends with status 0 then.
func (s *scontrol) partWarned(args []string) bool {
	for _, a := range args {
		if tag, _, _ := strings.Cut(a, "="); abbrev(tag, "MinNodes", 2) {
			return true
		}
	}
	return false
}

// createPartition is scontrol create partition=NAME KEY=VALUE....
func (s *scontrol) createPartition(args []string) {
	u := api.PartitionUpdate{Create: true}
	if msg := parsePartitionArgs(args, &u, func(m string) { s.w.raw(m) }); msg != "" {
		s.fail("%s", strings.TrimSuffix(msg, partNoErrorLine))
		return
	}
	pc, ok := s.partController()
	if !ok {
		return
	}
	if _, err := pc.UpdatePartition(s.ctx, &u); err != nil {
		s.fail("Error creating the partition: %s\n", errText(err))
	}
}

// deletePartition is scontrol delete partition=NAME (or "partition
// NAME"); arg is the words after delete.
func (s *scontrol) deletePartition(args []string) {
	_, name, ok := strings.Cut(args[0], "=")
	if !ok {
		if len(args) < 2 {
			s.fail("scontrol: error: Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'\n")
			return
		}
		name = args[1]
	}
	pc, ok := s.partController()
	if !ok {
		return
	}
	if err := pc.DeletePartition(s.ctx, &api.PartitionDelete{Name: name}); err != nil {
		// Slurm names the first word after delete: "delete_partition
		// partition: ..." for "delete partition x".
		s.fail("delete_partition %s: %s\n", args[0], errText(err))
	}
}

// isPartitionWord tells whether the first word after create or delete
// names a partition.
func isPartitionWord(args []string) bool {
	if len(args) == 0 {
		return false
	}
	tag, _, _ := strings.Cut(args[0], "=")
	return abbrev(tag, "PartitionName", 3)
}

// partAvail is sinfo's AVAIL: the state in lower case ("inactive", which
// the default format's %.5a cuts to "inact", as the peer's sinfo does).
func partAvail(p *api.Partition) string {
	return strings.ToLower(orDefault(p.State, "up"))
}
