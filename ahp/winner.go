package ahp

// Winner returns the completion that answered request id: the first valid
// one a client dispatched. ok is false while the request is open, after a
// Withdraw, and for a request too long past to be remembered. The
// serving terminal asks it when its own completion was rejected, so the
// agent hears the answer every client was told (see ui/internal/share).
func (h *Host) Winner(id string) (c Completion, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok = h.won[id]
	return c, ok
}

// rememberWin records c for Winner, forgetting the oldest past maxWon.
// h.mu is held.
func (h *Host) rememberWin(id string, c Completion) {
	if _, seen := h.won[id]; !seen {
		h.wonOrder = append(h.wonOrder, id)
	}
	h.won[id] = c
	if len(h.wonOrder) > maxWon {
		delete(h.won, h.wonOrder[0])
		h.wonOrder = h.wonOrder[1:]
	}
}
