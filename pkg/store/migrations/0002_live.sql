-- Loam schema version 2: the live system's records (R5, R11, R12).
--
-- preemptions has one row per preempted job run, written when its node
-- daemon reports the end: who lost how much, whether the job was requeued
-- and whether it exited inside its grace window (its checkpoint completed).
-- time is when the victim got its checkpoint signal; sreport groups by it.
CREATE TABLE preemptions (
	seq          INTEGER PRIMARY KEY AUTOINCREMENT,
	time         INTEGER NOT NULL,
	job_id       INTEGER NOT NULL,
	account      TEXT NOT NULL DEFAULT '',
	user_name    TEXT NOT NULL DEFAULT '',
	partition    TEXT NOT NULL DEFAULT '',
	beneficiary  INTEGER NOT NULL DEFAULT 0,
	reason       TEXT NOT NULL DEFAULT '',
	gpus         INTEGER NOT NULL DEFAULT 0,
	lost_seconds INTEGER NOT NULL DEFAULT 0,
	requeued     INTEGER NOT NULL DEFAULT 0,
	checkpointed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX preemptions_time ON preemptions (time);

-- The priority audit is pruned by age (PriorityAuditRetention).
CREATE INDEX priority_audit_time ON priority_audit (time);
