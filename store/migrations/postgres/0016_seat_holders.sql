-- Who held each seat of a play-now table from which hand on (README.md
-- "Play now"): a row when the table is made (every seat, from hand 1),
-- one when a person takes a bot's seat over (from the first hand they
-- play) and one when a person leaves it to a bot (from the first hand
-- the bot plays from its deal). The score sheet and the hands' records
-- name each hand's seat by it, and a rated play-now match is rated by it
-- (docs/ratings.md "Play now").
CREATE TABLE seat_holders (
	table_id   TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
	seat       INTEGER NOT NULL,
	hand       INTEGER NOT NULL,
	kind       TEXT NOT NULL,
	name       TEXT NOT NULL,
	account_id TEXT REFERENCES accounts (id) ON DELETE SET NULL,
	PRIMARY KEY (table_id, seat, hand)
);
