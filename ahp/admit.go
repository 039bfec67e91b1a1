package ahp

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"

	"golang.org/x/time/rate"
)

// A client's id is its name on the wire: the origin of every action it
// dispatches, echoed to every client and kept for replay, and who the
// agent hears answered. So the host, not the client, has the last word on
// it: admit is the one place every connection (initialize, reconnect) and
// Join (the host's own clients) get one. An id is at most MaxClientID
// bytes of printable UTF-8, is one connection's at a time, and is never
// the id of one of the host's own clients.

// MaxClientID is the longest client id the host takes, in bytes.
const MaxClientID = 128

// checkClientID says why id cannot name a client, or nil.
func checkClientID(id string) error {
	switch {
	case id == "":
		return errors.New("a clientId is required")
	case len(id) > MaxClientID:
		return fmt.Errorf("a clientId has at most %d bytes", MaxClientID)
	case !utf8.ValidString(id):
		return errors.New("a clientId must be UTF-8")
	}
	for _, r := range id {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("a clientId holds printable characters only, not %U", r)
		}
	}
	return nil
}

// admit names connection c id, or says why not. A reconnect under the id
// of another live connection is the same client back before its old
// connection was seen to drop: that one ends. h.mu is held.
func (h *Host) admit(c *hostConn, id string, reconnect bool) *RPCError {
	if rerr := h.claimable(id); rerr != nil {
		return rerr
	}
	if other := h.names[id]; other != nil && other != c {
		if !reconnect {
			return invalid(fmt.Sprintf("clientId %q is in use by another connection", clip(id)))
		}
		other.drop()
	}
	h.release(c)
	h.names[id] = c
	c.clientID = id
	if c.drafts == nil {
		c.drafts = rate.NewLimiter(rate.Limit(h.o.DraftRate), h.o.DraftBurst)
	}
	return nil
}

// claimable says why no connection may have id, or nil. h.mu is held.
func (h *Host) claimable(id string) *RPCError {
	if err := checkClientID(id); err != nil {
		return invalid(err.Error())
	}
	if h.own[id] {
		return invalid(fmt.Sprintf("clientId %q is the host's own", clip(id)))
	}
	return nil
}

// release frees c's id. h.mu is held.
func (h *Host) release(c *hostConn) {
	if c.clientID != "" && h.names[c.clientID] == c {
		delete(h.names, c.clientID)
	}
}

// remember records a client id's generation for reconnects (bounded).
func (h *Host) remember(id string, g Generation) {
	if _, ok := h.known[id]; !ok {
		h.order = append(h.order, id)
		if len(h.order) > 4*h.o.MaxClients {
			delete(h.known, h.order[0])
			h.order = h.order[1:]
		}
	}
	h.known[id] = g
}

// Local is a client in the host's own process: the terminal that runs
// `elicit serve`. Its actions are validated and echoed like any client's,
// under an id no connection can take.
type Local struct {
	h   *Host
	id  string
	seq int64
}

// Join admits a client of the host's own process under id: from then on
// the id is the host's, and no connection may claim it, even after the
// local client stops.
func (h *Host) Join(id string) (*Local, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := checkClientID(id); err != nil {
		return nil, err
	}
	if h.own[id] || h.names[id] != nil {
		return nil, fmt.Errorf("clientId %q is in use", clip(id))
	}
	h.own[id] = true
	return &Local{h: h, id: id}, nil
}

// ID is the local client's id.
func (l *Local) ID() string { return l.id }

// Dispatch applies one of the local client's actions as if it came over
// the wire: validated, applied, echoed to everyone with its origin. The
// error is the rejection reason.
func (l *Local) Dispatch(a Action) error {
	l.h.mu.Lock()
	defer l.h.mu.Unlock()
	l.seq++
	return l.h.dispatch(&Origin{ClientID: l.id, ClientSeq: l.seq}, a, false)
}
