-- Loam schema version 6: event triggers (strigger --set).
--
-- One row per trigger until it fires (a one-shot trigger) or is cleared.
-- record is the controller's JSON of the trigger. The next trigger id is
-- meta's 'next_trigger_id', so a restart never hands out an id twice.
CREATE TABLE triggers (
	id     INTEGER PRIMARY KEY,
	record BLOB NOT NULL
);
