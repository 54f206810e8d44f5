-- Loam schema version 5: every run of a requeued job (sacct -D).
--
-- acct_runs keeps the accounting record of each run that ended with a
-- requeue (scontrol requeue, preemption in requeue mode, a node failure of
-- a --requeue job), as Slurm's accounting keeps one row per run. run is the
-- job's restart count during that run (0 for the first). The columns match
-- acct_jobs; record is the run's api.AcctJob JSON, steps included. The
-- job's latest run stays in acct_jobs once it ends; a requeue writes one row
-- here and nothing else touches this table.
CREATE TABLE acct_runs (
	id            INTEGER NOT NULL,
	run           INTEGER NOT NULL,
	array_job_id  INTEGER NOT NULL DEFAULT 0,
	user_id       INTEGER NOT NULL,
	user_name     TEXT NOT NULL,
	account       TEXT NOT NULL DEFAULT '',
	partition     TEXT NOT NULL DEFAULT '',
	name          TEXT NOT NULL DEFAULT '',
	state         TEXT NOT NULL,
	submit_time   INTEGER NOT NULL,
	eligible_time INTEGER NOT NULL DEFAULT 0,
	start_time    INTEGER NOT NULL DEFAULT 0,
	end_time      INTEGER NOT NULL DEFAULT 0,
	record        BLOB NOT NULL,
	PRIMARY KEY (id, run)
) WITHOUT ROWID;
CREATE INDEX acct_runs_end ON acct_runs (end_time);
CREATE INDEX acct_runs_array ON acct_runs (array_job_id);
