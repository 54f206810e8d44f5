package command

import (
	"strconv"
	"strings"
)

// Slurm's srun reads a -i, -o or -e value before it is a file name: one
// that starts with "all" (any case: "allx.out" too) is every task's
// stream through srun, and a whole number below the task count (leading
// blanks and zeros allowed, "01" and " 1" are task 1) is one task's: srun
// forwards its input to that task only, or shows that task's output only
// and drops the others'. Anything else, a task id past the last task too,
// is a file the nodes open ("none" was made /dev/null when the options
// were read). ntasks 0 (not known yet) takes any number as a task id.

// srunStreamTask is the task a -o or -e value keeps (-1: every task, or
// a file).
func srunStreamTask(v string, ntasks int) int {
	n, ok := srunTaskID(v, ntasks)
	if !ok {
		return -1
	}
	return n
}

// srunFileName is the name the nodes get for a -o or -e value: "" (the
// stream comes to srun) for "all..." and for a task id.
func srunFileName(v string, ntasks int) string {
	if _, ok := srunTaskID(v, ntasks); ok || srunAll(v) {
		return ""
	}
	return v
}

// srunInputName is the input mode the nodes and srun's forwarder get for
// a -i value: "" for "all...", a task id in its plain form.
func srunInputName(v string, ntasks int) string {
	if n, ok := srunTaskID(v, ntasks); ok {
		return strconv.Itoa(n)
	}
	if srunAll(v) {
		return ""
	}
	if _, ok := srunTaskID(v, 0); ok {
		return "./" + v // past the last task: a file, not a task id to the nodes
	}
	return v
}

func srunAll(v string) bool { return len(v) >= 3 && strings.EqualFold(v[:3], "all") }

// srunTaskID parses v as C's strtol does when the whole value must be
// the number (blanks first, then digits to the end) and keeps it when a
// task has that id.
func srunTaskID(v string, ntasks int) (int, bool) {
	d := strings.TrimLeft(v, " \t\n\v\f\r")
	if !isDigits(d) {
		return 0, false
	}
	n, err := strconv.Atoi(d)
	if err != nil || (ntasks > 0 && n >= ntasks) {
		return 0, false
	}
	return n, true
}
