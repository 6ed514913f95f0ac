-- Names that look alike (docs/accounts.md): each account's name's
-- confusable skeleton (account.Skeleton, Unicode TS #39), so that a new
-- name whose skeleton an account has already is taken, as its key is.
-- Not unique: two accounts made before this migration may share one.
-- The skeletons of the accounts there are are filled in by the
-- migration's Go step (fillSkeletons), as SQL cannot compute them.

ALTER TABLE accounts ADD COLUMN name_skeleton TEXT;

CREATE INDEX accounts_skeleton ON accounts (name_skeleton);
