-- The leaderboard ranks by the conservative rating, mu - 3 sigma
-- (openskill's ordinal, rating.Model.Ordinal), not by mu
-- (docs/ratings.md): a player whose rating is still uncertain ranks below
-- one as good whose rating is sure. ratings.ordinal is computed by the
-- database from mu and sigma, so that every write keeps it, and
-- ratings_board orders by it.

ALTER TABLE ratings ADD COLUMN ordinal DOUBLE PRECISION GENERATED ALWAYS AS (mu - 3 * sigma) STORED;

DROP INDEX ratings_board;

-- Settled ratings (sigma at most rating.ProvisionalSigma, the literal the
-- leaderboard's queries repeat) of accounts that are not disabled, by
-- game, best (highest ordinal) first.
CREATE INDEX ratings_board ON ratings (variant, ordinal DESC, account_id, last_played, sigma, disabled) WHERE sigma <= 5.0 AND NOT disabled;
