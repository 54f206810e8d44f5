package command

import (
	"strconv"
	"strings"
)

// The checks scontrol makes on update NodeName=... before sending it, with
// Slurm 22.05's messages.

// nodeStatesHelp follows "Invalid input: State=X / Request aborted" as
// Slurm prints it.
const nodeStatesHelp = "Valid states are: NoResp DRAIN FAIL FUTURE RESUME POWER_DOWN POWER_UP UNDRAIN\n" +
	"Not all states are valid given a node's prior state\n"

// knownNodeState tells whether scontrol sends State=s: the update states
// and the node state names; the controller refuses those it cannot take
// ("Invalid node state specified").
func knownNodeState(s string) bool {
	switch strings.ToUpper(s) {
	case "NORESP", "DRAIN", "FAIL", "FUTURE", "RESUME", "POWER_DOWN", "POWER_DOWN_ASAP", "POWER_DOWN_FORCE",
		"POWER_UP", "UNDRAIN", "DOWN", "IDLE", "ALLOCATED", "ALLOC", "MIXED", "COMPLETING", "UNKNOWN", "CANCEL_REBOOT":
		return true
	}
	return false
}

// nodeWeight reads Weight= as scontrol does, with its messages.
func nodeWeight(v string) (int64, string) {
	w, err := strconv.ParseInt(v, 10, 64)
	switch {
	case err != nil:
		return 0, "scontrol: error: Weight value (" + v + ") is not a valid number\nNo changes specified\n"
	case w < 0:
		return 0, "scontrol: error: Weight value (" + v + ") is less than zero\nNo changes specified\n"
	}
	return w, ""
}

// onlyNodeNames tells whether an update names nodes and nothing else
// (Slurm: "No changes specified"; an empty Reason= is a change).
func onlyNodeNames(list []updateArg) bool {
	for _, a := range list {
		if !abbrev(a.tag, "NodeName", 3) {
			return false
		}
	}
	return true
}
