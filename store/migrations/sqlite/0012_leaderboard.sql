-- The leaderboard at any depth (docs/ratings.md). It pages by its order,
-- (mu descending, account ID), not by an offset, and counts the rows
-- ahead of a page for its rank, from one index alone: ratings_board now
-- holds every column the board filters on (the 90 days' activity, the
-- sigma bound) and leaves out the ratings of disabled accounts, which
-- ratings.disabled copies from accounts.disabled (store.SetDisabled keeps
-- the two together), so that neither the count nor a page looks up
-- anything for a row it does not show.

ALTER TABLE ratings ADD COLUMN disabled BOOLEAN NOT NULL DEFAULT FALSE;

UPDATE ratings SET disabled = TRUE WHERE account_id IN (SELECT id FROM accounts WHERE disabled);

DROP INDEX ratings_board;

-- Settled ratings (sigma at most rating.ProvisionalSigma, the literal the
-- leaderboard's queries repeat) of accounts that are not disabled, by
-- game, best first.
CREATE INDEX ratings_board ON ratings (variant, mu DESC, account_id, last_played, sigma, disabled) WHERE sigma <= 5.0 AND NOT disabled;
