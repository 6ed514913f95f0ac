-- Each table gets a number, its key inside the store (the ID stays its
-- name everywhere else), and its event log, written at every action, is
-- keyed by it: table_events, by (num, seq), takes the place of events.
-- The primary key index of events was the 16-character ID and the
-- event's number, so every action wrote a wide index entry
-- (docs/performance.md, "Events keyed by number"). A new table's number
-- is drawn from the column's identity. The events are copied.
--
-- A rolling restart runs the version before beside this one
-- (docs/deploy.md): for its processes, events is left as a view of
-- table_events by table ID, which it reads and appends to as before (an
-- append to a table that is not there inserts nothing, as before). A
-- later migration drops the view.

ALTER TABLE tables ADD COLUMN num BIGINT GENERATED ALWAYS AS IDENTITY;

ALTER TABLE tables ADD CONSTRAINT tables_num UNIQUE (num);

CREATE TABLE table_events (
	num     BIGINT NOT NULL REFERENCES tables (num) ON DELETE CASCADE,
	seq     INTEGER NOT NULL CHECK (seq >= 0),
	action  JSON NOT NULL,
	at      TIMESTAMPTZ NOT NULL,
	by_whom TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (num, seq)
);

INSERT INTO table_events (num, seq, action, at, by_whom)
	SELECT t.num, e.seq, e.action, e.at, e.by_whom FROM events e JOIN tables t ON t.id = e.table_id ORDER BY t.num, e.seq;

DROP TABLE events;

CREATE VIEW events AS
	SELECT t.id AS table_id, e.seq, e.action, e.at, e.by_whom FROM table_events e JOIN tables t ON t.num = e.num;

ALTER VIEW events ALTER COLUMN by_whom SET DEFAULT '';

CREATE FUNCTION events_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO table_events (num, seq, action, at, by_whom)
		SELECT num, NEW.seq, NEW.action, NEW.at, NEW.by_whom FROM tables WHERE id = NEW.table_id;
	IF NOT FOUND THEN
		RETURN NULL;
	END IF;
	RETURN NEW;
END
$$;

CREATE TRIGGER events_insert INSTEAD OF INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_insert();
