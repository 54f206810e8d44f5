package supervisor

import (
	"fmt"
	"strconv"
)

// oomLine is what slurmstepd writes into a batch job's error file when the
// memory cgroup's OOM killer ended some of its processes:
// "slurmstepd-cpu001: error: Detected 1 oom_kill event in StepId=12.batch.
// Some of the step tasks have been OOM Killed." (events when more than one).
func oomLine(node string, jobID uint32, kills uint64) string {
	events := "event"
	if kills != 1 {
		events = "events"
	}
	return fmt.Sprintf("slurmstepd-%s: error: Detected %d oom_kill %s in StepId=%s.batch. Some of the step tasks have been OOM Killed.\n",
		node, kills, events, strconv.FormatUint(uint64(jobID), 10))
}
