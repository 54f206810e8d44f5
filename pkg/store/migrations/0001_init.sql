-- Loam controller state, schema version 1.
--
-- jobs holds every job the controller keeps in memory (pending, running, and
-- finished within MinJobAge). request is the submission as accepted (JSON of
-- job.Request plus the controller's defaults), written at submit and on
-- updates; status is the mutable part, rewritten on every state change.
CREATE TABLE jobs (
	id      INTEGER PRIMARY KEY,
	request BLOB NOT NULL,
	status  BLOB NOT NULL
) WITHOUT ROWID;

-- meta holds single values: next_job_id (the job id sequence; ids are never
-- reused), and anything later versions need.
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value INTEGER NOT NULL
) WITHOUT ROWID;

-- acct_jobs is the job history sacct reads: one row per job id, written when
-- the job ends (and rewritten if it is requeued and ends again). The columns
-- are what sacct filters on; record is the full api.AcctJob JSON.
CREATE TABLE acct_jobs (
	id           INTEGER PRIMARY KEY,
	array_job_id INTEGER NOT NULL DEFAULT 0,
	user_id      INTEGER NOT NULL,
	user_name    TEXT NOT NULL,
	account      TEXT NOT NULL DEFAULT '',
	partition    TEXT NOT NULL DEFAULT '',
	name         TEXT NOT NULL DEFAULT '',
	state        TEXT NOT NULL,
	submit_time  INTEGER NOT NULL,
	eligible_time INTEGER NOT NULL DEFAULT 0,
	start_time   INTEGER NOT NULL DEFAULT 0,
	end_time     INTEGER NOT NULL DEFAULT 0,
	record       BLOB NOT NULL
);
CREATE INDEX acct_jobs_user ON acct_jobs (user_id, end_time);
CREATE INDEX acct_jobs_end ON acct_jobs (end_time);
CREATE INDEX acct_jobs_array ON acct_jobs (array_job_id);

-- nodes holds what an administrator set on a node (drain, down, reason),
-- which survives a controller restart as Slurm's node state does.
CREATE TABLE nodes (
	name TEXT PRIMARY KEY,
	data BLOB NOT NULL
) WITHOUT ROWID;

-- priority_audit records every priority change with its factors and reason
-- (R5); filled from the scheduler's plans.
CREATE TABLE priority_audit (
	seq     INTEGER PRIMARY KEY AUTOINCREMENT,
	job_id  INTEGER NOT NULL,
	time    INTEGER NOT NULL,
	old     INTEGER NOT NULL,
	new     INTEGER NOT NULL,
	reason  TEXT NOT NULL DEFAULT '',
	factors BLOB
);
CREATE INDEX priority_audit_job ON priority_audit (job_id, time);

-- job_events is each job's history of notable events (requeue, preemption,
-- node failure...), for scontrol and the later statistics issues.
CREATE TABLE job_events (
	seq    INTEGER PRIMARY KEY AUTOINCREMENT,
	job_id INTEGER NOT NULL,
	time   INTEGER NOT NULL,
	kind   TEXT NOT NULL,
	detail BLOB
);
CREATE INDEX job_events_job ON job_events (job_id, time);
