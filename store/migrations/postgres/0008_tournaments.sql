-- Events of many tables (docs/events.md): each event's state as the
-- server's JSON, with a version that every update must name (the update
-- of a stale version is refused), and whether it is over.

CREATE TABLE tournaments (
	id       TEXT PRIMARY KEY,
	data     JSON NOT NULL,
	version  INTEGER NOT NULL CHECK (version >= 1),
	created  TIMESTAMPTZ NOT NULL,
	finished BOOLEAN NOT NULL DEFAULT FALSE
);
