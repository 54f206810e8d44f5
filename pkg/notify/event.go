package notify

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind is what happened to a job, named as --mail-type names it; PREEMPT
// is Loam's.
type Kind string

// Event kinds.
const (
	Begin         Kind = "BEGIN"
	End           Kind = "END"
	Fail          Kind = "FAIL"
	Requeue       Kind = "REQUEUE"
	TimeLimit     Kind = "TIME_LIMIT"
	TimeLimit90   Kind = "TIME_LIMIT_90"
	TimeLimit80   Kind = "TIME_LIMIT_80"
	TimeLimit50   Kind = "TIME_LIMIT_50"
	InvalidDepend Kind = "INVALID_DEPEND"
	Preempt       Kind = "PREEMPT"
)

// verbs are Slurm's words for the kinds in a mail subject.
var verbs = map[Kind]string{
	Begin: "Began", End: "Ended", Fail: "Failed", Requeue: "Requeued",
	TimeLimit: "Reached time limit", TimeLimit90: "Reached 90% of time limit",
	TimeLimit80: "Reached 80% of time limit", TimeLimit50: "Reached 50% of time limit",
	InvalidDepend: "Invalid dependency", Preempt: "Preempted",
}

// Event is one notification. Mail is set when the job asked for mail of
// this kind (--mail-type); the webhook gets every event.
type Event struct {
	Kind        Kind   `json:"event"`
	Time        int64  `json:"time"`
	Cluster     string `json:"cluster"`
	JobID       uint32 `json:"job_id"`
	ArrayJobID  uint32 `json:"array_job_id,omitempty"`
	ArrayTaskID *int   `json:"array_task_id,omitempty"`
	Name        string `json:"name"`
	User        string `json:"user"`
	Account     string `json:"account,omitempty"`
	Partition   string `json:"partition,omitempty"`
	State       string `json:"state"`
	// ExitStatus and ExitSignal are the batch script's exit code, as
	// ExitCode=status:signal.
	ExitStatus int    `json:"exit_status"`
	ExitSignal int    `json:"exit_signal"`
	QueuedSecs int64  `json:"queued_seconds"`
	RunSecs    int64  `json:"run_seconds"`
	Restarts   int    `json:"restarts,omitempty"`
	MailUser   string `json:"-"`
	Mail       bool   `json:"-"`

	// Preemption (R12): why, for whom, whether the victim's checkpoint
	// completed (it exited inside its grace window), whether it was
	// requeued and when it is expected to start again (0: unknown).
	Reason          string `json:"reason,omitempty"`
	Beneficiary     uint32 `json:"beneficiary,omitempty"`
	Checkpointed    bool   `json:"checkpointed,omitempty"`
	Requeued        bool   `json:"requeued,omitempty"`
	ExpectedRestart int64  `json:"expected_restart,omitempty"`
	GraceSecs       int64  `json:"grace_seconds,omitempty"`
	Signal          string `json:"signal,omitempty"`
}

// Subject is the mail subject Slurm writes for e, e.g.
// "Slurm Job_id=12 Name=x Began, Queued time 00:00:01" or
// "Slurm Job_id=12 Name=x Ended, Run time 00:05:01, COMPLETED, ExitCode 0".
func Subject(e *Event) string {
	var b strings.Builder
	if e.ArrayTaskID != nil {
		fmt.Fprintf(&b, "Slurm Array Task Job_id=%d_%d (%d) Name=%s ", e.ArrayJobID, *e.ArrayTaskID, e.JobID, e.Name)
	} else {
		fmt.Fprintf(&b, "Slurm Job_id=%d Name=%s ", e.JobID, e.Name)
	}
	verb, ok := verbs[e.Kind]
	if !ok {
		verb = "unknown"
	}
	b.WriteString(verb)
	switch e.Kind {
	case Begin:
		b.WriteString(", Queued time " + Duration(e.QueuedSecs))
	case End, Fail, Requeue, Preempt:
		b.WriteString(", Run time " + Duration(e.RunSecs))
	case TimeLimit, TimeLimit90, TimeLimit80, TimeLimit50:
		b.WriteString(" Elapsed time " + Duration(e.RunSecs))
	}
	switch e.Kind {
	case End, Fail:
		b.WriteString(", " + e.State)
		if e.ExitSignal == 0 {
			b.WriteString(", ExitCode " + strconv.Itoa(e.ExitStatus))
		}
	case Preempt:
		b.WriteString(", " + e.State + ", checkpoint " + checkpointWord(e.Checkpointed))
	}
	return b.String()
}

func checkpointWord(saved bool) string {
	if saved {
		return "saved"
	}
	return "not saved"
}

// Body is the mail text: empty as in Slurm, except for a preemption,
// whose owner is told why, whether the checkpoint completed and when the
// job should run again (R12).
func Body(e *Event) string {
	if e.Kind != Preempt {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Job %d (%s) of user %s", e.JobID, e.Name, e.User)
	if e.Account != "" {
		fmt.Fprintf(&b, ", account %s,", e.Account)
	}
	fmt.Fprintf(&b, " was preempted at %s after %s of run time.\n", stamp(e.Time), Duration(e.RunSecs))
	fmt.Fprintf(&b, "Reason: %s.\n", reasonText(e))
	if e.Checkpointed {
		fmt.Fprintf(&b, "Checkpoint: saved (the job exited by itself within its %d s grace window after %s).\n", e.GraceSecs, e.Signal)
	} else {
		fmt.Fprintf(&b, "Checkpoint: not saved (the job was killed at the end of its %d s grace window after %s).\n", e.GraceSecs, e.Signal)
	}
	switch {
	case !e.Requeued:
		b.WriteString("The job was not requeued (it is not requeueable): submit it again to resume.\n")
	case e.ExpectedRestart > 0:
		fmt.Fprintf(&b, "The job was requeued (restart %d) and is expected to start again at %s.\n", e.Restarts, stamp(e.ExpectedRestart))
	default:
		fmt.Fprintf(&b, "The job was requeued (restart %d); no start time can be estimated yet.\n", e.Restarts)
	}
	return b.String()
}

func reasonText(e *Event) string {
	switch e.Reason {
	case "urgent":
		return fmt.Sprintf("urgent job %d needed its resources", e.Beneficiary)
	case "reclaim":
		return fmt.Sprintf("the tenant that lent its GPUs took them back for job %d", e.Beneficiary)
	case "deadlock":
		return fmt.Sprintf("breaking a reservation deadlock for job %d", e.Beneficiary)
	}
	return fmt.Sprintf("%s (job %d)", e.Reason, e.Beneficiary)
}

func stamp(unix int64) string { return time.Unix(unix, 0).Format("2006-01-02T15:04:05") }

// Duration prints seconds as Slurm's mail does: HH:MM:SS, with D- when a
// day or more.
func Duration(secs int64) string {
	secs = max(secs, 0)
	d, h, m, s := secs/86400, secs/3600%24, secs/60%60, secs%60
	if d > 0 {
		return fmt.Sprintf("%d-%02d:%02d:%02d", d, h, m, s)
	}
	return fmt.Sprintf("%02d:%02d:%02d", h, m, s)
}
