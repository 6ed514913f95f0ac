-- Ratings (docs/ratings.md): whether a table is rated, every account's
-- rating per game, each rated match's change to it, and the rated
-- matches themselves, so that a match is rated exactly once however many
-- processes see it end. Rows about a person go with their account
-- (ON DELETE CASCADE).

ALTER TABLE tables ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE ratings (
	account_id  TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	variant     TEXT NOT NULL,
	mu          DOUBLE PRECISION NOT NULL,
	sigma       DOUBLE PRECISION NOT NULL,
	matches     INTEGER NOT NULL DEFAULT 0,
	wins        INTEGER NOT NULL DEFAULT 0,
	last_played TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (account_id, variant)
);

-- The leaderboard: settled ratings (sigma at most rating.ProvisionalSigma,
-- the literal the leaderboard query repeats) by game, best first.
CREATE INDEX ratings_board ON ratings (variant, mu DESC, account_id) WHERE sigma <= 5.0;

-- A rated match: its row is inserted first in the transaction that rates
-- it, and the primary key refuses a second.
CREATE TABLE rated_matches (
	table_id TEXT PRIMARY KEY,
	rated_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE rating_history (
	account_id   TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	variant      TEXT NOT NULL,
	table_id     TEXT NOT NULL,
	seat         INTEGER NOT NULL,
	at           TIMESTAMPTZ NOT NULL,
	place        INTEGER NOT NULL,   -- 1 for the winners
	won          BOOLEAN NOT NULL,
	mu_before    DOUBLE PRECISION NOT NULL,
	sigma_before DOUBLE PRECISION NOT NULL,
	mu           DOUBLE PRECISION NOT NULL,
	sigma        DOUBLE PRECISION NOT NULL,
	-- the seat's match, for the profile
	hands        INTEGER NOT NULL,
	bids         INTEGER NOT NULL,   -- auctions won
	sets         INTEGER NOT NULL,   -- of those, hands set
	moons        INTEGER NOT NULL,   -- moons bid
	points       INTEGER NOT NULL,   -- the seat's final score
	PRIMARY KEY (account_id, table_id)
);

CREATE INDEX rating_history_account ON rating_history (account_id, variant, at);
CREATE INDEX rating_history_table ON rating_history (table_id);
