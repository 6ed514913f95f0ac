// Package accountapi is the accounts of `pitch serve` (docs/accounts.md):
// sign-up, sign-in and sign-out with a password or a passkey, the
// sessions behind them, password change and reset, the seats handed to
// an account, the export of everything kept about a person, and the
// deletion of an account. Its Who tells every other part whose request
// it is.
//
// It knows nothing of the tables themselves: what it needs of them (a
// seat handed to an account, a deleted account's seats renamed) it asks
// through Tables.
package accountapi

import (
	"context"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"pitch/server/httpx"
	"pitch/store"
)

// Store is what the accounts read and write: the accounts, their
// sessions, passkeys and reset links, and (for the export) their ratings.
type Store interface {
	store.Accounts
	// PlayerRatings and RatingHistory are as in store.Ratings.
	PlayerRatings(ctx context.Context, account string) ([]store.PlayerRating, error)
	RatingHistory(ctx context.Context, account, variant string, limit int) ([]store.RatingPoint, error)
}

// Tables is what the accounts need of the live tables (play.Server
// implements it).
type Tables interface {
	// ClaimSeat gives account a the seat at table id whose guest token
	// is token, if no account holds it: in the store, and at the table,
	// whose players hear of the new name. It answers the seat given, or
	// -1 when none was (no such table, a wrong token, a seat an account
	// holds already); err is the store's refusal or failure.
	ClaimSeat(ctx context.Context, id, token string, a Account) (seat int, err error)
	// RenameAccount renames the seats of account id at the tables this
	// process holds to anon, and frees them of the account: it was
	// deleted. The connections at them close, and the tables and events
	// the store renamed it in are read again.
	RenameAccount(id, anon string)
	// CloseSockets closes, with close code 1008 and reason, the
	// WebSockets of account id opened with session (Account.Session):
	// with session "", all of the account's, and those playing its
	// seats. Its sessions ended.
	CloseSockets(id, session, reason string)
}

// Activity is what the export adds of a person's play beyond the tables,
// from the parts that keep it (the root wires them with SetActivity);
// a nil func gives an empty list.
type Activity struct {
	// Events returns the events account joined signed in, with its place
	// and totals in each (eventapi.API.AccountEvents).
	Events func(ctx context.Context, account string) (any, error)
	// Daily returns its daily results (daily.Daily.AccountResults).
	Daily func(ctx context.Context, account string) (any, error)
}

// SetActivity gives the export the person's events and daily results.
// Call it before serving.
func (s *API) SetActivity(a Activity) { s.activity = a }

// Config is what the accounts need.
type Config struct {
	Store  Store        // where the accounts are kept
	Tables Tables       // the live tables, for seats handed or renamed
	Log    *slog.Logger // nil: nothing logged
	// SessionTTL is how long a sign-in lasts (default DefaultSessionTTL).
	SessionTTL time.Duration
	// Origin is the site's origin as browsers see it (ParseOrigin), the
	// relying party of passkeys; "" takes it from each request's Host.
	// An https:// origin implies HTTPS.
	Origin string
	// HTTPS: the site is served over HTTPS even when requests arrive
	// over plain HTTP (a proxy in front ends TLS): session cookies are
	// Secure and __Host- prefixed.
	HTTPS bool
	// SignUpsPerHour is how many accounts one client address may create
	// in an hour; 0 sets no limit.
	SignUpsPerHour int
	// AddrSignIns is how many failed sign-ins one client address may make
	// in an hour, in bursts of a twelfth of that (throttle.go); 0 means
	// DefaultAddrSignIns, below 0 no limit per address (the limits per
	// name stay).
	AddrSignIns int
	// HashMemory is the argon2id memory, in MiB, that the password hashes
	// running at once may use (0: DefaultHashMemory): it bounds how many
	// run at once, at least one.
	HashMemory int
	// NameLookups, when set, is drawn on by every check of whether a name
	// is taken (a sign-up's, a passkey sign-up's begin), one token per
	// client address each; empty, 429 too_many_lookups.
	NameLookups *httpx.Limiter
}

// API serves /api/account/… and tells who a request belongs to.
type API struct {
	store  Store
	tables Tables
	log    *slog.Logger
	cfg    Config

	signups *httpx.Limiter // accounts created per address, when SignUpsPerHour is set
	// The buckets of password checks (throttle.go); signInByAddr is its
	// per-address one, which failed passkey sign-ins draw on too.
	throttle     *throttle
	signInByAddr *httpx.Limiter
	allowReset   *httpx.Limiter // reset-link tries per address
	hashes       *hashGate      // the argon2id hashes running at once

	activity Activity // the export's events and daily results (SetActivity)

	ceremonies ceremonies   // passkey ceremonies begun (passkeys.go)
	reauth     reauths      // when each session last showed a credential (reauth.go)
	purged     atomic.Int64 // when expired sessions were last deleted (Unix seconds)
}

// New returns the accounts over cfg.Store.
func New(cfg Config) *API {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.SessionTTL == 0 {
		cfg.SessionTTL = DefaultSessionTTL
	}
	if cfg.AddrSignIns == 0 {
		cfg.AddrSignIns = DefaultAddrSignIns
	}
	if cfg.HashMemory <= 0 {
		cfg.HashMemory = DefaultHashMemory
	}
	s := &API{store: cfg.Store, tables: cfg.Tables, log: cfg.Log, cfg: cfg}
	if cfg.SignUpsPerHour > 0 {
		s.signups = httpx.NewLimiter(float64(cfg.SignUpsPerHour)/3600, float64(cfg.SignUpsPerHour))
	}
	s.throttle = newThrottle(cfg.AddrSignIns)
	s.signInByAddr = s.throttle.byAddr
	s.allowReset = httpx.NewLimiter(1/resetEvery.Seconds(), resetBurst)
	s.hashes = newHashGate(cfg.HashMemory)
	return s
}

// Routes lists the routes this part serves, each marked with whether
// it serves table, hand or event data (then its handler asks the
// access policy).
func (s *API) Routes() []httpx.Route {
	return []httpx.Route{
		httpx.Get("/api/account", s.handleMe),
		httpx.Post("/api/account/signup", s.handleSignUp),
		httpx.Post("/api/account/signin", s.handleSignIn),
		httpx.Post("/api/account/signout", s.handleSignOut),
		httpx.Post("/api/account/password", s.handlePassword),
		httpx.Post("/api/account/reset", s.handleReset),
		httpx.GetData("/api/account/seats", s.handleMySeats),
		httpx.PostData("/api/account/seats", s.handleClaim),
		httpx.GetData("/api/account/export", s.handleExport),
		httpx.Post("/api/account/delete", s.handleDelete),
		httpx.Post("/api/account/passkey/signup/begin", s.handlePasskeySignUpBegin),
		httpx.Post("/api/account/passkey/signup/finish", s.handlePasskeySignUpFinish),
		httpx.Post("/api/account/passkey/add/begin", s.handlePasskeyAddBegin),
		httpx.Post("/api/account/passkey/add/finish", s.handlePasskeyAddFinish),
		httpx.Post("/api/account/passkey/signin/begin", s.handlePasskeySignInBegin),
		httpx.Post("/api/account/passkey/signin/finish", s.handlePasskeySignInFinish),
		httpx.Post("/api/account/reauth", s.handleReauth),
		httpx.Post("/api/account/passkey/reauth/begin", s.handlePasskeyReauthBegin),
		httpx.Post("/api/account/passkey/reauth/finish", s.handlePasskeyReauthFinish),
		httpx.Get("/api/account/passkeys", s.handlePasskeys),
		httpx.Post("/api/account/passkey/remove", s.handlePasskeyRemove),
	}
}

// storeTimeout bounds a store call made in the background.
const storeTimeout = 10 * time.Second

// writeError answers err (httpx.WriteError).
func (s *API) writeError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.WriteError(s.log, w, r, err)
}
