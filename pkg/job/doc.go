// Package job is the job model shared by the commands, the controller and
// the scheduler: the submission Request, job states and their transitions,
// pending and end reasons, exit codes, and the syntax of job arrays,
// dependencies, signals, mail types and --export, all spelled and printed
// as Slurm spells and prints them.
//
// It is a leaf: standard library and other leaves only, no I/O, no clock.
// Parsers never panic; bad input returns an error naming what is wrong.
//
// # Job life
//
// States and the transitions the controller may make (transitions in
// transition.go is the same table; change both together):
//
//	                +-------------+
//	 submit ------->|   PENDING   |<-------------------------------+
//	                +-------------+                                |
//	     cancel /     |         |   (nodes need boot/config)      |
//	     deadline /   |         v                                  |
//	     launch fail  |   +-------------+  boot fail / node fail   |
//	   (CANCELLED,    |   | CONFIGURING |----------------> BOOT_FAIL
//	    DEADLINE,     |   +-------------+                NODE_FAIL |
//	    FAILED)       v         |                                  |
//	                +-------------+  suspend  +-----------+        |
//	                |   RUNNING   |<--------->| SUSPENDED |        |
//	                +-------------+  resume   +-----------+        |
//	                  |    |    |                  |               |
//	    end of script |    |    +-- requeue -------+--> REQUEUED --+
//	    or kill       v    |                            |  (Restarts+1)
//	                +-------------+                     v
//	                | COMPLETING  |                REQUEUE_HOLD --> PENDING
//	                +-------------+                     (release)
//	                  |    (RUNNING may also end directly)
//	                  v
//	COMPLETED  FAILED  TIMEOUT  CANCELLED  OUT_OF_MEMORY  NODE_FAIL
//	PREEMPTED  DEADLINE  BOOT_FAIL          (terminal: IsTerminal)
//	                  |
//	                  +-- explicit requeue (scontrol requeue, preemption
//	                      in REQUEUE mode, --requeue on node failure)
//	                      --> REQUEUED --> PENDING
//
// A preempted job whose partition uses PreemptMode=REQUEUE goes from
// RUNNING (or SUSPENDED) straight to REQUEUED and then PENDING, as in
// Slurm; PREEMPTED is the end state of PreemptMode=CANCEL.
//
// The states RESIZING, REVOKED, SIGNALING, SPECIAL_EXIT, STAGE_OUT,
// STOPPED, REQUEUE_FED and RESV_DEL_HOLD exist so that Slurm's names and
// squeue codes print and parse; Loam's controller does not enter them.
//
// # Who fills in what
//
// sbatch (package jobopt) fills in everything the user asked for and the
// defaults Slurm's client applies itself (job name from the script name or
// "wrap", node count from -w, task count from -N and --ntasks-per-node,
// paths made absolute against the working directory, the exported
// environment). The controller fills in the submitter's identity
// (UserID, GroupID, UserName, SubmitHost, SubmitDir) from the credential
// and applies the cluster's defaults: partition, time limit, output file
// names (slurm-%j.out, slurm-%A_%a.out), memory per CPU, requeue policy.
package job
