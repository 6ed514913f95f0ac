package httpx

import (
	"context"

	"pitch/account"
)

// NameTaker says whether a name is an account's, or looks like one
// (store.Accounts.NameTaken: the confusable skeleton).
type NameTaker interface {
	NameTaken(ctx context.Context, name string) (bool, error)
}

// GuestName checks name, cleaned (CleanName), for a guest — someone not
// signed in — at a table, an event or the daily deals: it may not look
// like a bot's (name_bot) nor be an account's, or look like one
// (name_account), so that nobody passes for a bot or for a person with
// an account (docs/accounts.md, Names). nil when it may be used.
func GuestName(ctx context.Context, op, name string, st NameTaker) error {
	if account.ReservedGuestName(name) {
		return Errorf(Invalid, op, "%q looks like a bot's name (the tables name their bots Bot 1, Bot 2, …): choose another", name).
			With("name_bot", map[string]any{"Name": name})
	}
	taken, err := st.NameTaken(ctx, name)
	if err != nil {
		return StoreDown(op, err)
	}
	if taken {
		return Errorf(Conflict, op, "%q is an account's name, or looks like one: sign in to it, or choose another name", name).
			With("name_account", map[string]any{"Name": name})
	}
	return nil
}
