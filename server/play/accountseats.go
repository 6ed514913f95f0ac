package play

import (
	"context"
	"net/http"

	"pitch/server/accountapi"
)

// Account is who a request belongs to (accountapi.Account).
type Account = accountapi.Account

// Who tells whose request r is: its signed-in account, if there is one
// (accountapi.API.Who). The server calls SetWho with it.
type Who func(r *http.Request) (Account, bool)

// SetWho makes who the server's way of knowing whose a request is; until
// it is called every request is a guest's. Call it before serving.
func (s *Server) SetWho(who Who) { s.who = who }

// account returns the account that request r belongs to, and whether
// there is one (Who); guests get false.
func (s *Server) account(r *http.Request) (Account, bool) {
	if s.who == nil {
		return Account{}, false
	}
	return s.who(r)
}

// ClaimSeat implements accountapi.Tables: account a takes the seat at
// table id whose guest token is token, if no account holds it, in the
// store and at the table, whose players hear of it.
func (s *Server) ClaimSeat(ctx context.Context, id, token string, a Account) (int, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return -1, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	seat := t.seatFor(token)
	if seat < 0 || t.info.Seats[seat].Account != "" {
		return -1, nil
	}
	if err := s.store.SetSeatAccount(ctx, t.id, seat, a.ID, a.Name); err != nil {
		return -1, err
	}
	t.info.Seats[seat].Account, t.info.Seats[seat].Name = a.ID, a.Name
	t.infoVer++
	t.publish()
	t.broadcast()
	return seat, nil
}

// RenameAccount implements accountapi.Tables: the seats of deleted
// account id at the tables this process holds are anon's, of no account;
// the connections at them close, and the tables and events the store
// renamed it in are read again (accountGone).
func (s *Server) RenameAccount(id, anon string) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	s.accountGone(ctx, id, anon)
}
