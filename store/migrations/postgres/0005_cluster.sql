-- Several server processes on one database (docs/deploy.md): each live
-- process's heartbeat, the lease of the one process that drives each
-- table (its bots, stand-ins and timers), and how many connections each
-- process holds to each seat of a table (seat -1: spectators), so the
-- driver knows who is there. Times are the database's clock.

CREATE TABLE processes (
	id      TEXT PRIMARY KEY,
	expires TIMESTAMPTZ NOT NULL
);

CREATE TABLE leases (
	table_id TEXT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
	owner    TEXT NOT NULL,
	expires  TIMESTAMPTZ NOT NULL
);

CREATE INDEX leases_owner ON leases (owner);

CREATE TABLE presence (
	owner    TEXT NOT NULL,
	table_id TEXT NOT NULL,
	seat     INTEGER NOT NULL,
	conns    INTEGER NOT NULL,
	PRIMARY KEY (owner, table_id, seat)
);

CREATE INDEX presence_table ON presence (table_id);
