-- The table as people meet it: who made each action (the seat itself, or
-- the table for a player out of time or away), whether the table offers
-- hints, and the table where the next match of the same seats is played.

ALTER TABLE events ADD COLUMN by_whom TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN no_hints BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tables ADD COLUMN next_id TEXT NOT NULL DEFAULT '';
