-- Each table gets a number, its key inside the store (the ID stays its
-- name everywhere else), and the rows written at every action are keyed
-- by it: a table's events by (num, seq), and the commitments of its fair
-- deals, stored again at each contribution, by (num, commitment). The
-- primary key index of events was the 16-character ID and the event's
-- number, so every action wrote a wide index entry, and the index's
-- leaves split often (docs/performance.md, "Events keyed by number").
-- A new table's number is one more than the highest (the store's insert;
-- SQLite's writes are serialised). Existing rows are copied, in key order,
-- into tables of the new shape.

ALTER TABLE tables ADD COLUMN num INTEGER;

UPDATE tables SET num = rowid;

CREATE UNIQUE INDEX tables_num ON tables (num);

ALTER TABLE events RENAME TO events_by_id;

CREATE TABLE events (
	num     INTEGER NOT NULL REFERENCES tables (num) ON DELETE CASCADE,
	seq     INTEGER NOT NULL CHECK (seq >= 0),
	action  TEXT NOT NULL,
	at      TEXT NOT NULL,
	by_whom TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (num, seq)
);

INSERT INTO events (num, seq, action, at, by_whom)
	SELECT t.num, e.seq, e.action, e.at, e.by_whom FROM events_by_id e JOIN tables t ON t.id = e.table_id ORDER BY t.num, e.seq;

DROP TABLE events_by_id;

ALTER TABLE commitments RENAME TO commitments_by_id;

CREATE TABLE commitments (
	num        INTEGER NOT NULL REFERENCES tables (num) ON DELETE CASCADE,
	n          INTEGER NOT NULL CHECK (n >= 1),
	commitment TEXT NOT NULL,
	at         TEXT NOT NULL,
	pending    TEXT NOT NULL,
	PRIMARY KEY (num, commitment)
);

INSERT INTO commitments (num, n, commitment, at, pending)
	SELECT t.num, c.n, c.commitment, c.at, c.pending FROM commitments_by_id c JOIN tables t ON t.id = c.table_id ORDER BY t.num, c.commitment;

DROP TABLE commitments_by_id;
