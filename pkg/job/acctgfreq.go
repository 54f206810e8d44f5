package job

import (
	"strings"
)

// The data types --acctg-freq and JobAcctGatherFrequency give sampling
// intervals for, as "TYPE=SECONDS" items; a bare number is the task
// interval (Slurm's form from before there were types).
var acctgFreqTypes = []string{"task", "energy", "network", "filesystem"}

// AcctgFreqOf is the interval spec gives data type kind, read as Slurm's
// acct_gather_parse_freq reads it: "TYPE=" found anywhere in spec, in any
// case, and the number after it as C's strtol reads it; for "task" a
// number at the front of spec comes first. -1 when spec gives none (C's
// int: -1 written out is the same as none).
func AcctgFreqOf(kind, spec string) int {
	if kind == "task" {
		if v := cInt(spec); v != -1 {
			return v
		}
	}
	i := indexFoldASCII(spec, kind+"=")
	if i < 0 {
		return -1
	}
	return cInt(spec[i+len(kind)+1:])
}

// indexFoldASCII is the first index of lower-case sub in s, ignoring the
// case of ASCII letters only, as C's strcasestr compares bytes (a
// Unicode lower-casing would move the byte offsets of invalid UTF-8).
func indexFoldASCII(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		match := true
		for j := 0; j < len(sub) && match; j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			match = c == sub[j]
		}
		if match {
			return i
		}
	}
	return -1
}

// BadAcctgFreqItems are the comma-separated items of an --acctg-freq value
// that give no data type an interval, each of which the commands report
// ("Invalid --acctg-freq specification: ITEM") before they refuse it.
func BadAcctgFreqItems(spec string) []string {
	var bad []string
	for _, item := range strings.Split(spec, ",") {
		if item == "" {
			continue // strtok skips empty items
		}
		valid := false
		for _, kind := range acctgFreqTypes {
			valid = valid || AcctgFreqOf(kind, item) != -1
		}
		if !valid {
			bad = append(bad, item)
		}
	}
	return bad
}

// TaskAcctgFreqAllowed reports whether slurmctld takes a job's task
// sampling interval, given the cluster's JobAcctGatherFrequency (Slurm's
// acct_gather_check_acct_freq_task): a job with a memory limit may not turn
// task sampling off (0) or sample less often than the cluster does, since
// the samples enforce the limit. Only --mem=0 is no limit here; an
// interval the cluster's setting does not give lifts the bound.
func TaskAcctgFreqAllowed(spec, clusterSpec string, memLimit bool) bool {
	cluster := AcctgFreqOf("task", clusterSpec)
	if !memLimit || cluster == 0 {
		return true
	}
	task := AcctgFreqOf("task", spec)
	switch {
	case task == -1:
		return true
	case task == 0:
		return false
	case cluster == -1:
		return uint32(task) <= 65534 // Slurm's NO_VAL16
	}
	// Slurm compares the int with an unsigned bound: a negative interval
	// is above any.
	return uint32(task) <= uint32(cluster)
}

// cInt is Slurm's _get_int: strtol's value cast to a C int, or -1 when
// there are no digits.
func cInt(s string) int {
	v, n := Strtol(s)
	if n == 0 {
		return -1
	}
	return int(int32(v))
}
