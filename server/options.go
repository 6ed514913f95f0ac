package server

import (
	"io/fs"
	"log/slog"
	"time"

	"pitch/server/httpx"
	"pitch/server/play"
)

// Options tune a server; the zero value gives the defaults.
type Options struct {
	BotDelay   time.Duration // pause before a bot acts, from when its turn began (default 800ms)
	AwayDelay  time.Duration // pause before a bot plays for a disconnected player (default 3s)
	RetryDelay time.Duration // pause before retrying after a store failure (default 2s)
	// DealWait is how long a due deal waits for the contributions of
	// human seats that sent none (default DefaultDealWait, 2s).
	DealWait time.Duration
	// Misbehave makes the server cheat at fair deals on purpose, for the
	// tests that check the pages catch it; nil (honest) in any real use.
	Misbehave *Misbehave
	// ReadyWait is the longest a table waits, after a hand ends, for the
	// people reading its summary to say they are ready (default
	// DefaultReadyWait, 30s; ready.go).
	ReadyWait time.Duration
	Logger    *slog.Logger
	Static    fs.FS // the browser UI; nil serves none
	// AddrRate limits the API requests and the anonymous WebSocket
	// messages one client address may send a second (burst: twice as
	// many); 0 sets no limit. `pitch serve` sets 30. An address behind
	// which people play gets half as much again per player's WebSocket
	// (a club's WiFi); a player's own messages draw on their connection's
	// limit only.
	AddrRate float64
	// AddrConns is how many anonymous WebSockets (spectators, an event's
	// onlookers) one client address may hold open at once; the next is
	// closed with code 1013 and a reason. A connection that shows a
	// seat's or an event entry's token counts against that player
	// instead (8 at most). 0 sets no limit; `pitch serve` sets 32.
	AddrConns int
	// MaxConns is how many WebSockets the server holds open at once; 0
	// sets no limit; `pitch serve` sets 20,000.
	MaxConns int
	// PingInterval is the time between pings on a WebSocket (default
	// 30s).
	PingInterval time.Duration
	// PongWait is how long a client has to answer a ping before it is
	// closed (default: half the ping interval).
	PongWait time.Duration
	// HTTP timeouts, for HTTPServer (defaults: the Default… constants).
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// TablesPerHour is how many tables one client address may create in
	// an hour (a bucket of that many, refilled evenly); over it, 429. 0
	// sets no limit; `pitch serve` sets 20.
	TablesPerHour int
	// MaxTables is how many unfinished tables the server holds at once;
	// past it, creating one is 503 until a match ends or an idle table
	// is closed. 0 sets no limit; `pitch serve` sets 10,000.
	MaxTables int
	// OverloadLag is how far behind the server may run (its scheduling
	// lag, smoothed over about a second) before it refuses new
	// connections (close code 1013) and new tables (503 with Retry-After),
	// keeping those it has; it takes them again once the lag is below
	// half of this. 0 sets no limit; `pitch serve` sets
	// DefaultOverloadLag.
	OverloadLag time.Duration
	// IdleClose closes an unfinished table that nobody has joined, played
	// at or watched for this long: it is no longer played nor loaded at
	// start, and its record is kept. 0 never closes one; `pitch serve`
	// sets 14 days.
	IdleClose time.Duration
	// Cluster runs the server as one of several processes sharing its
	// store, which must be a store.Cluster (PostgreSQL): see play/cluster.go
	// and docs/deploy.md. `pitch serve` sets it for PostgreSQL.
	Cluster bool
	// SessionTTL is how long a sign-in lasts (default
	// accountapi.DefaultSessionTTL).
	SessionTTL time.Duration
	// Origin is the site's origin as browsers see it (https://pitch.example,
	// accountapi.ParseOrigin), the relying party of passkeys; "" takes it
	// from each request's Host header, which then must be the one the
	// browser sent (docs/deploy.md). An https:// origin implies HTTPS.
	Origin string
	// HTTPS: the site is served over HTTPS even when requests arrive
	// over plain HTTP, from a proxy in front that ends TLS. Session
	// cookies are then Secure and __Host- prefixed, and every answer
	// carries HSTS. (A request over TLS gets them anyway.)
	HTTPS bool
	// SignUpsPerHour is how many accounts one client address may create
	// in an hour; 0 sets no limit; `pitch serve` sets 10.
	SignUpsPerHour int
	// AddrSignIns is how many failed sign-ins one client address may
	// make in an hour, in bursts of a twelfth of that; 0 means
	// accountapi.DefaultAddrSignIns (240: 20 in a row, then one every
	// 15 s), below 0 no limit per address (the limits per name stay;
	// docs/accounts.md).
	AddrSignIns int
	// HashMemory is the argon2id memory, in MiB, the password hashes
	// running at once may use (0: accountapi.DefaultHashMemory, 64, three
	// at once); more wait their turn, briefly, or are answered 429 busy.
	HashMemory int
	// TrustedProxies are the peers whose X-Forwarded-For or X-Real-IP
	// names the client (httpx.Proxies); the zero value trusts none, and
	// every limit per address counts the peer's address.
	TrustedProxies httpx.Proxies
	// LeaseTTL is how long a table's lease lasts unrenewed in a cluster
	// (default DefaultLeaseTTL): a process that dies has its tables taken
	// over within about this long.
	LeaseTTL time.Duration
	// DailyDeals and DailyBots are the deals and the bots' level of the
	// daily events (defaults daily.DefaultDeals, daily.DefaultBots).
	DailyDeals int
	DailyBots  string
	// Clock is the time of day the daily events follow; nil: time.Now.
	// For the tests' days.
	Clock func() time.Time
	// EventMinute is how long one minute of an event round's clock lasts
	// (its minutes, and an extension's); 0: a minute. For the tests'
	// rounds on the clock.
	EventMinute time.Duration
	// AccountCheck is how often the server looks up the accounts seated
	// at its tables, to act on what `pitch user disable|delete` did
	// while it runs: their seats' connections close, a deleted account's
	// seats take their new name (default play.DefaultAccountCheck, 10s;
	// negative: never).
	AccountCheck time.Duration
}

// play is the part of o that play reads.
func (o Options) play() play.Options {
	return play.Options{BotDelay: o.BotDelay, AwayDelay: o.AwayDelay, RetryDelay: o.RetryDelay, DealWait: o.DealWait,
		Misbehave: o.Misbehave, ReadyWait: o.ReadyWait, Logger: o.Logger, AddrRate: o.AddrRate, AddrConns: o.AddrConns,
		MaxConns: o.MaxConns, PingInterval: o.PingInterval, PongWait: o.PongWait,
		TablesPerHour: o.TablesPerHour, MaxTables: o.MaxTables,
		OverloadLag: o.OverloadLag, IdleClose: o.IdleClose, Cluster: o.Cluster, LeaseTTL: o.LeaseTTL, EventMinute: o.EventMinute,
		AccountCheck: o.AccountCheck}
}
