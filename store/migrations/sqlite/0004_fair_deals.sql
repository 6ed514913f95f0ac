-- Provably fair deals (docs/fairness.md): whether a table deals each hand
-- from a commitment and the players' contributions (tables from before
-- keep dealing from their seed), and each hand's deal: the secret, the
-- commitment, the contributions and who made them, as JSON.

ALTER TABLE tables ADD COLUMN fair_deals BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE deals (
	table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
	n        INTEGER NOT NULL CHECK (n >= 1),
	deal     TEXT NOT NULL,
	PRIMARY KEY (table_id, n)
);
