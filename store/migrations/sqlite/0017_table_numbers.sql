-- Each table gets a number, its key inside the store (the ID stays its
-- name everywhere else), and its event log, written at every action, is
-- keyed by it: table_events, by (num, seq), takes the place of events.
-- The primary key index of events was the 16-character ID and the
-- event's number, so every action wrote a wide index entry, and the
-- index's leaves were rebalanced often (docs/performance.md, "Events
-- keyed by number"). A new table's number is one more than the highest
-- (the store's insert; SQLite's writes are serialised). The events are
-- copied in key order. (PostgreSQL's 0017 also leaves a view named
-- events, for the processes of the version before during a rolling
-- restart; a SQLite file has one process.)

ALTER TABLE tables ADD COLUMN num INTEGER;

UPDATE tables SET num = rowid;

CREATE UNIQUE INDEX tables_num ON tables (num);

CREATE TABLE table_events (
	num     INTEGER NOT NULL REFERENCES tables (num) ON DELETE CASCADE,
	seq     INTEGER NOT NULL CHECK (seq >= 0),
	action  TEXT NOT NULL,
	at      TEXT NOT NULL,
	by_whom TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (num, seq)
);

INSERT INTO table_events (num, seq, action, at, by_whom)
	SELECT t.num, e.seq, e.action, e.at, e.by_whom FROM events e JOIN tables t ON t.id = e.table_id ORDER BY t.num, e.seq;

DROP TABLE events;
