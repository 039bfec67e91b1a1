package ahp

// Presence says a client attached to the session (its first connection
// subscribed to the session's channel) or left it (its last one ended).
type Presence struct {
	ClientID string
	Attached bool
	// SameUser: the client came over a same-user connection (the inbox).
	SameUser bool
}

// presence counts a client's connection to the session in (+1) or out
// (-1), and tells the watchers when the client attached or left. h.mu is
// held.
func (h *Host) presence(id string, delta int, sameUser bool) {
	before := h.present[id]
	h.present[id] = max(before+delta, 0)
	if h.present[id] == 0 {
		delete(h.present, id)
	}
	if (before == 0) == (h.present[id] == 0) {
		return
	}
	u := Update{Presence: &Presence{ClientID: id, Attached: before == 0, SameUser: sameUser}}
	for w := range h.watch {
		w.put(u)
	}
}
