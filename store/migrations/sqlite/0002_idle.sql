-- Idle tables: when a table last saw someone (a join or a connection;
-- its actions have their own times in events), and whether it was closed
-- for being idle too long. A closed table keeps its record but is no
-- longer loaded when the server starts, nor played.

ALTER TABLE tables ADD COLUMN active TEXT;
ALTER TABLE tables ADD COLUMN closed BOOLEAN NOT NULL DEFAULT FALSE;
