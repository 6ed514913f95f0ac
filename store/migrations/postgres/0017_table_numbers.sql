-- Each table gets a number, its key inside the store (the ID stays its
-- name everywhere else), and the rows written at every action are keyed
-- by it: a table's events by (num, seq), and the commitments of its fair
-- deals, stored again at each contribution, by (num, commitment). The
-- primary key index of events was the 16-character ID and the event's
-- number, so every action wrote a wide index entry (docs/performance.md,
-- "Events keyed by number"). A new table's number is drawn from the
-- column's identity sequence. Existing rows are copied into tables of the
-- new shape.

ALTER TABLE tables ADD COLUMN num BIGINT GENERATED ALWAYS AS IDENTITY;

ALTER TABLE tables ADD CONSTRAINT tables_num UNIQUE (num);

ALTER TABLE events RENAME TO events_by_id;
ALTER INDEX events_pkey RENAME TO events_by_id_pkey;

CREATE TABLE events (
	num     BIGINT NOT NULL REFERENCES tables (num) ON DELETE CASCADE,
	seq     INTEGER NOT NULL CHECK (seq >= 0),
	action  JSON NOT NULL,
	at      TIMESTAMPTZ NOT NULL,
	by_whom TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (num, seq)
);

INSERT INTO events (num, seq, action, at, by_whom)
	SELECT t.num, e.seq, e.action, e.at, e.by_whom FROM events_by_id e JOIN tables t ON t.id = e.table_id ORDER BY t.num, e.seq;

DROP TABLE events_by_id;

ALTER TABLE commitments RENAME TO commitments_by_id;
ALTER INDEX commitments_pkey RENAME TO commitments_by_id_pkey;

CREATE TABLE commitments (
	num        BIGINT NOT NULL REFERENCES tables (num) ON DELETE CASCADE,
	n          INTEGER NOT NULL CHECK (n >= 1),
	commitment TEXT NOT NULL,
	at         TEXT NOT NULL,
	pending    JSON NOT NULL,
	PRIMARY KEY (num, commitment)
);

INSERT INTO commitments (num, n, commitment, at, pending)
	SELECT t.num, c.n, c.commitment, c.at, c.pending FROM commitments_by_id c JOIN tables t ON t.id = c.table_id ORDER BY t.num, c.commitment;

DROP TABLE commitments_by_id;
