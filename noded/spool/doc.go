// Package spool is the node daemon's state on disk, shared by loam-noded
// and the job supervisors it starts. Everything a restarted daemon needs
// to re-adopt running jobs and to report finished ones exactly once lives
// here:
//
//	<spool>/jobs/<id>/                  flocked by the live supervisor
//	                  launch.json       the job as launched (Launch)
//	                  slurm_script      the batch script, owned by the user
//	                  lock              the flock of supervisors before the
//	                                    directory itself was locked
//	                  cgroup.err        why the daemon could not make the
//	                                    job's cgroup, when it could not
//	                  start.json        written by the supervisor when the
//	                                    script runs (Start)
//	                  result.json       written by the supervisor last: how
//	                                    the job ended (an api.JobEvent)
//	                  ev-started.json   the Started event with its sequence
//	                  ev-ended.json     number, written by the daemon
//	                  step_<id>/        an srun step's directory (noded/step)
//	                    usage.json      what the step's tasks used here,
//	                                    written by its step process
//	                    ev-usage.json   the step's usage event with its
//	                                    sequence number, written by the
//	                                    daemon when the step process exits
//	<spool>/done/<seq>/                 a finished job's directory, moved
//	                                    here once its end has a number
//	<spool>/acked                       highest event number the controller
//	                                    acknowledged
//	<spool>/supervisors.log             the supervisors' standard output and
//	                                    error (JSON lines with the job id),
//	                                    appended to by all of them
//
// Exactly once: a job's end gets its sequence number in ev-ended.json
// inside the job's directory, and the rename of jobs/<id> to done/<seq> is
// the commit. A daemon killed at any point finds the event either still in
// jobs/ (and numbers or moves it again, with the same number once written)
// or in done/ (and sends it again with the same number); the controller
// drops numbers it has applied, and done/<seq> is removed only after the
// controller acknowledged seq. A supervisor is alive exactly while it
// holds its job's lock, which survives pid reuse and daemon restarts. Its
// control socket is an abstract Unix socket named after the job's
// directory, so it leaves no file behind.
//
// Files are written to a temporary name and renamed, so a reader never
// sees half a file. A record damaged all the same reads as ErrCorrupt (the
// daemon moves it aside and goes on), an acknowledgement file that holds
// no number as ErrCorrupt too (the daemon starts from 0 and the next
// SetAcked rewrites it), and entries of jobs/ and done/ that are not
// numbered directories are listed by Strays, never read as jobs.
package spool
