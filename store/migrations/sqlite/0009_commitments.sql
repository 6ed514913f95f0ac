-- Fair deals survive a restart (docs/fairness.md): every commitment a
-- table publishes is stored, with its secret and the contributions
-- received for it, before anyone is shown it. A restarted server deals
-- the pending hand from the commitment it published; one dropped unused
-- is listed in the hand's record as abandoned.

CREATE TABLE commitments (
	table_id   TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
	n          INTEGER NOT NULL CHECK (n >= 1),
	commitment TEXT NOT NULL,
	at         TEXT NOT NULL,
	pending    TEXT NOT NULL,
	PRIMARY KEY (table_id, commitment)
);
