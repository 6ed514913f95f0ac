package play

import "slices"

// Daily deals (docs/events.md, Daily deals): server/daily answers
// /api/daily, finds each day's events and opens them (OpenDaily); a
// daily event is a solo duplicate event that also keeps who each entry
// is, for one try each.

// dailyData is what a daily event keeps besides the event: who each
// entry is, for one try each.
type dailyData struct {
	Day   string   `json:"day"`    // 2026-03-01 (UTC)
	Owner []string `json:"owners"` // per entry: "a:" and an account's ID, or "g:" and the SHA-256 of a guest's identity
}

// ownerEntry returns the entry of owner, or -1. The lock must be held.
func (e *liveEvent) ownerEntry(owner string) int {
	if e.d.Daily == nil {
		return -1
	}
	return slices.Index(e.d.Daily.Owner, owner)
}
