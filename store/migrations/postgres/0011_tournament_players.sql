-- The events a signed-in player joined (docs/events.md), for their
-- profile: which event, their entry in it, and when they joined.

CREATE TABLE tournament_players (
	account    TEXT NOT NULL,
	tournament TEXT NOT NULL,
	entry      INTEGER NOT NULL,
	joined     TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (account, tournament)
);
CREATE INDEX tournament_players_joined ON tournament_players (account, joined);
