-- Loam schema version 4: administrators' advance reservations (scontrol
-- create reservation).
--
-- One row per reservation until it ends or is deleted. record is the
-- controller's JSON of the reservation; end_time (Unix seconds) lets a
-- restarted controller drop the ones that ended while it was down. The
-- suffix of default names (<user>_<n>) is meta's 'next_resv_suffix', so a
-- restart never hands out a name twice.
CREATE TABLE advance_reservations (
	name     TEXT PRIMARY KEY,
	end_time INTEGER NOT NULL,
	record   BLOB NOT NULL
) WITHOUT ROWID;
