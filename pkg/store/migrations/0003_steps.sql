-- Loam schema version 3: job steps (srun).
--
-- steps holds every step of the live jobs' current runs: written when srun
-- creates the step and again when it ends, so a restarted controller still
-- lists the running steps and accounts the finished ones. record is the
-- controller's JSON of the step. A requeued job's steps of earlier runs are
-- deleted with the requeue; a finished job's steps go into its accounting
-- record (acct_jobs.record) and stay here until the job leaves the live
-- table.
CREATE TABLE steps (
	job_id  INTEGER NOT NULL,
	step_id INTEGER NOT NULL,
	record  BLOB NOT NULL,
	PRIMARY KEY (job_id, step_id)
) WITHOUT ROWID;
