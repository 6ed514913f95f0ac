-- Play now (README.md "Play now"): tables any person may be seated at by
-- one tap, people's pending takeovers of bots' seats, the takeovers made
-- (who took a seat over from which bot, at which hand and score), and
-- the seat each person holds through play now, so that pressing Play
-- again lands in the same seat.

ALTER TABLE tables ADD COLUMN play_now BOOLEAN NOT NULL DEFAULT FALSE;

CREATE INDEX tables_play_now ON tables (variant, created) WHERE play_now AND NOT finished AND NOT closed;

-- A pending takeover: the person who takes the bot's seat at the next
-- hand boundary. The primary key makes it one owner a seat.
CREATE TABLE seat_claims (
	table_id   TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
	seat       INTEGER NOT NULL,
	name       TEXT NOT NULL,
	token_hash BLOB NOT NULL,
	account_id TEXT REFERENCES accounts (id) ON DELETE CASCADE,
	at         TEXT NOT NULL,
	PRIMARY KEY (table_id, seat)
);

-- A takeover made: the person holding seat took it over from bot number
-- bot ("Bot 2") before hand, with the seat's score then.
CREATE TABLE takeovers (
	table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
	seat     INTEGER NOT NULL,
	hand     INTEGER NOT NULL,
	bot      INTEGER NOT NULL,
	score    INTEGER NOT NULL,
	PRIMARY KEY (table_id, seat, hand)
);

-- The seat (or pending takeover) a person holds through play now: owner
-- is "a:" and an account's ID, or "g:" and the SHA-256 of a guest
-- browser's identity. One row a person: a second Play finds it.
CREATE TABLE play_now_people (
	owner    TEXT PRIMARY KEY,
	table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
	seat     INTEGER NOT NULL
);

CREATE INDEX play_now_people_table ON play_now_people (table_id, seat);
