-- Tables, their seats, their event logs and their finished hands (SQLite).
-- Times are TEXT in UTC, 2006-01-02T15:04:05.000000Z, so they sort as text.
-- The match seed is a uint64 kept as decimal TEXT (SQLite integers are signed).

CREATE TABLE tables (
	id         TEXT PRIMARY KEY,
	variant    TEXT NOT NULL,
	options    TEXT,
	seed       TEXT NOT NULL,
	turn_timer INTEGER NOT NULL DEFAULT 0,
	created    TEXT NOT NULL,
	finished   BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE INDEX tables_created ON tables (created, id);

CREATE TABLE seats (
	table_id   TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
	seat       INTEGER NOT NULL,
	kind       TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
	level      TEXT NOT NULL DEFAULT '',
	name       TEXT NOT NULL DEFAULT '',
	token_hash BLOB,
	PRIMARY KEY (table_id, seat)
);

CREATE TABLE events (
	table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
	seq      INTEGER NOT NULL CHECK (seq >= 0),
	action   TEXT NOT NULL,
	at       TEXT NOT NULL,
	PRIMARY KEY (table_id, seq)
);

CREATE TABLE hands (
	table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
	n        INTEGER NOT NULL CHECK (n >= 1),
	record   TEXT NOT NULL,
	PRIMARY KEY (table_id, n)
);
