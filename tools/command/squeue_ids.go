package command

import (
	"errors"
	"strings"

	"github.com/loamhpc/loam/pkg/job"
)

// cInt reads a leading integer as Slurm's squeue does for job and step
// ids: C's strtol (64 bits, saturating) stored in an int, so 2147483648
// and 4294967294 become negative and 4294967296 zero. It returns the value
// with the rest of s; without digits the value is 0 and the rest is s.
func cInt(s string) (int32, string) {
	v, n := job.Strtol(s)
	if n == 0 {
		return 0, s
	}
	return int32(v), s[n:]
}

// checkStepList checks a -s list as Slurm's squeue does before asking
// for anything: each comma-separated entry is JOB[_TASK].STEP, split at
// dots (empty pieces dropped); an entry without a step is
// "Invalid job_step id: JOB.??", a job id that is not positive or a
// negative step "Invalid job_step id: JOB.STEP".
func checkStepList(list string) error {
	for _, entry := range strtok(list, ",") {
		parts := strtok(entry, ".")
		if len(parts) == 0 {
			break
		}
		if len(parts) == 1 {
			return errors.New("Invalid job_step id: " + parts[0] + ".??")
		}
		job, _ := cInt(parts[0])
		step, _ := cInt(parts[1])
		if job <= 0 || step < 0 {
			return errors.New("Invalid job_step id: " + strings.Join(parts[:2], "."))
		}
	}
	return nil
}
