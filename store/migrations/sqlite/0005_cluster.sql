-- Several server processes on one database need PostgreSQL (docs/deploy.md);
-- a SQLite file is held by one process (a lock file beside it). These
-- tables are PostgreSQL's 0005 kept in step, so both dialects number
-- their migrations alike; SQLite leaves them empty.

CREATE TABLE processes (
	id      TEXT PRIMARY KEY,
	expires TEXT NOT NULL
);

CREATE TABLE leases (
	table_id TEXT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
	owner    TEXT NOT NULL,
	expires  TEXT NOT NULL
);

CREATE TABLE presence (
	owner    TEXT NOT NULL,
	table_id TEXT NOT NULL,
	seat     INTEGER NOT NULL,
	conns    INTEGER NOT NULL,
	PRIMARY KEY (owner, table_id, seat)
);
