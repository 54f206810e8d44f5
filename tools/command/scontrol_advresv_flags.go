package command

import (
	"strings"

	"github.com/loamhpc/loam/pkg/slurmtime"
)

// resvFlag is one reservation flag as Slurm's Flags= parser knows it: the
// shortest abbreviation it takes and the signs it allows.
type resvFlag struct {
	name    string // as the controller gets it
	word    string // as Slurm matches it (some differ: Maintenance)
	min     int
	noRem   bool // "-FLAG" is refused (the flag only makes sense at creation)
	newOnly bool // neither "+FLAG" nor "-FLAG"
}

// resvFlagTable is Slurm 22.05's parser in its order: the first entry
// that matches a tag and allows its sign wins, so "o" is OVERLAP and "-o"
// an error.
var resvFlagTable = []resvFlag{
	{name: "MAINT", word: "Maintenance", min: 3},
	{name: "OVERLAP", word: "Overlap", min: 1, noRem: true},
	{name: "FLEX", word: "Flex", min: 1},
	{name: "IGNORE_JOBS", word: "Ignore_Jobs", min: 1},
	{name: "HOURLY", word: "Hourly", min: 1},
	{name: "DAILY", word: "Daily", min: 1},
	{name: "WEEKDAY", word: "Weekday", min: 1},
	{name: "WEEKEND", word: "Weekend", min: 1},
	{name: "WEEKLY", word: "Weekly", min: 1},
	{name: "ANY_NODES", word: "Any_Nodes", min: 1},
	{name: "ANY_NODES", word: "License_Only", min: 1},
	{name: "STATIC_ALLOC", word: "Static_Alloc", min: 1},
	{name: "PART_NODES", word: "Part_Nodes", min: 2},
	{name: "MAGNETIC", word: "Magnetic", min: 3},
	{name: "MAGNETIC", word: "Promiscuous", min: 2},
	{name: "PURGE_COMP", word: "Purge_Comp", min: 2},
	{name: "FIRST_CORES", word: "First_Cores", min: 1, noRem: true},
	{name: "TIME_FLOAT", word: "Time_Float", min: 1, newOnly: true},
	{name: "REPLACE", word: "Replace", min: 1, noRem: true},
	{name: "REPLACE_DOWN", word: "Replace_Down", min: 8, noRem: true},
	{name: "NO_HOLD_JOBS_AFTER_END", word: "No_Hold_Jobs_After_End", min: 1, noRem: true},
}

// parseResvFlags reads a Flags= value as Slurm does: names or their
// abbreviations, comma separated, each optionally after + or -; a sign
// holds for the names after it until the next one. It returns the flags
// as "+NAME" (set, also for an unsigned name) or "-NAME" (clear), and
// ok false when Slurm's parser refuses the value ("Error parsing flags").
// purge is PURGE_COMP=time's seconds (nil without a valid time: the
// controller's default).
func parseResvFlags(val string) (flags []string, purge *int64, ok bool) {
	op := byte(0)
	var out []string
	for _, tok := range strings.Split(val, ",") {
		if tok == "" {
			continue
		}
		if tok[0] == '+' || tok[0] == '-' {
			op, tok = tok[0], tok[1:]
		}
		tag, arg, hasArg := strings.Cut(tok, "=") // PURGE_COMP=time
		f, found := matchResvFlag(tag, op)
		if !found {
			return nil, nil, false
		}
		if secs, valid := slurmtime.Str2Secs(arg); hasArg && f.name == "PURGE_COMP" && valid && secs > 0 {
			purge = &secs
		}
		sign := "+"
		if op == '-' {
			sign = "-"
		}
		out = append(out, sign+f.name)
	}
	return out, purge, true
}

func matchResvFlag(tag string, op byte) (resvFlag, bool) {
	for _, f := range resvFlagTable {
		if !abbrev(tag, f.word, f.min) {
			continue
		}
		if (f.noRem && op == '-') || (f.newOnly && op != 0) {
			continue
		}
		return f, true
	}
	return resvFlag{}, false
}
