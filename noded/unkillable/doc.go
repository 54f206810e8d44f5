// Package unkillable is what a node does, as slurmstepd's step terminate
// monitor does, when a job's or step's processes are still there
// UnkillableStepTimeout after SIGKILL: it runs UnkillableStepProgram as
// root (bounded, with slurmstepd's four variables), writes slurmstepd's
// "STEPD TERMINATED ... DUE TO JOB NOT ENDING WITH SIGNALS" line, and has
// the node drained with Reason="Kill task failed". The job's supervisor
// and the step process use it; neither waits on the processes any longer
// than the timeout, and the job's or step's end is reported all the same.
package unkillable
