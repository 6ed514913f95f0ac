-- Accounts (docs/accounts.md): a person's name, password hash and
-- passkeys, their sessions, one-time password-reset links, and which
-- account holds a seat. Secrets are kept only as hashes (sessions, reset
-- links) or as argon2id PHC strings (passwords).

CREATE TABLE accounts (
	id       TEXT PRIMARY KEY,          -- random, URL-safe; never changes, even when the name does
	name     TEXT NOT NULL,             -- as chosen (NFC)
	name_key TEXT NOT NULL UNIQUE,      -- NFKC, case-folded: what makes two names the same
	password TEXT NOT NULL DEFAULT '',  -- argon2id PHC string; '' for none (passkeys only)
	created  TEXT NOT NULL,
	disabled BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE TABLE sessions (
	hash       BLOB PRIMARY KEY,       -- SHA-256 of the cookie's token
	account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	created    TEXT NOT NULL,
	expires    TEXT NOT NULL
);

CREATE INDEX sessions_account ON sessions (account_id);

CREATE TABLE passkeys (
	id         BLOB PRIMARY KEY,       -- the credential ID
	account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	data       TEXT NOT NULL,          -- the credential (public key, sign count, …) as JSON
	created    TEXT NOT NULL
);

CREATE INDEX passkeys_account ON passkeys (account_id);

CREATE TABLE resets (
	hash       BLOB PRIMARY KEY,       -- SHA-256 of the link's token
	account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
	expires    TEXT NOT NULL
);

ALTER TABLE seats ADD COLUMN account_id TEXT REFERENCES accounts (id) ON DELETE SET NULL;

CREATE INDEX seats_account ON seats (account_id);
