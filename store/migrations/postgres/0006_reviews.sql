-- Reviews of finished hands (docs/protocol.md, review): one per hand and
-- seat, computed on demand and kept, since a review is deterministic. And
-- an index for the history page's filter by game.

CREATE TABLE reviews (
	table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
	n        INTEGER NOT NULL CHECK (n >= 1),
	seat     INTEGER NOT NULL CHECK (seat >= 0),
	review   JSON NOT NULL,
	PRIMARY KEY (table_id, n, seat)
);

CREATE INDEX tables_variant_created ON tables (variant, created, id);
