package ahp

// Same-user connections and private requests. A connection the transport
// vouches for as the host's own user (the inbox's Unix socket: its peer's
// uid checked) sees everything; a network connection (a bearer token) does
// not see the requests asked with RequestPrivate (permissions: whoever
// holds a token must not approve a command on this machine), nor the
// session's Meta, nor elicit's _meta of each request (which the
// protocol's ChatInputRequest does not define: a network client gets the
// protocol's shapes exactly). Everything a connection is sent or can
// dispatch goes through the checks here.

// withoutMeta is a with its request's _meta left out.
func withoutMeta(a Action) Action {
	switch x := a.(type) {
	case InputRequested:
		if x.Request.Meta != nil {
			x.Request.Meta = nil
			return x
		}
	case InputNeededSet:
		if x.Request.Meta != nil {
			x.Request.Meta = nil
			return x
		}
	}
	return a
}

// requestIDOf is the request an action is about, "" for none.
func requestIDOf(a Action) string {
	switch a := a.(type) {
	case InputRequested:
		return a.Request.ID
	case InputAnswerChanged:
		return a.RequestID
	case InputCompleted:
		return a.RequestID
	case InputNeededSet:
		return a.Request.ID
	case InputNeededRemoved:
		return a.ID
	}
	return ""
}

// sees reports whether connection c may be sent l. h.mu is held.
func (c *hostConn) sees(l *logged) bool { return !l.private || c.sameUser }

// inputs is the state as c may see it. h.mu is held.
func (c *hostConn) inputs() Inputs {
	h := c.h
	if c.sameUser {
		return h.in
	}
	out := Inputs{Turn: h.in.Turn}
	for _, e := range h.in.Entries {
		if !h.private[e.Request.ID] {
			e.Request.Meta = nil // a copy of the entry: the state keeps its own
			out.Entries = append(out.Entries, e)
		}
	}
	return out
}

// info is what a snapshot says to c besides the inputs. h.mu is held.
func (c *hostConn) info() stateInfo { return c.h.infoFor(c.inputs(), c.sameUser) }

// hidden reports whether a's request is one c may not act on. h.mu is
// held.
func (c *hostConn) hidden(a Action) bool { return !c.sameUser && c.h.private[requestIDOf(a)] }

// OpenCount is how many requests are open, private ones included: what
// `elicit inbox list --count` adds up.
func (h *Host) OpenCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, e := range h.in.Entries {
		if e.Open() {
			n++
		}
	}
	return n
}

// SetTitle renames the session: snapshots and listSessions say title from
// now on (a client reads it when it subscribes).
func (h *Host) SetTitle(title string) {
	h.mu.Lock()
	h.o.Title = title
	h.mu.Unlock()
}

// Title is the session's title.
func (h *Host) Title() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.o.Title
}

// SessionMeta is what the host tells same-user connections of the
// session (nil: nothing).
func (h *Host) SessionMeta() *SessionMeta {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.o.Meta
}

// status is the session's summary status, as a connection that sees in
// has it.
func (h *Host) status(in Inputs) int {
	switch {
	case len(in.OpenRequests()) > 0:
		return StatusInputNeeded
	case in.Turn != "":
		return StatusInProgress
	}
	return StatusIdle
}

// infoFor is what a snapshot of in says besides the inputs; a same-user
// connection is told the session's Meta too.
func (h *Host) infoFor(in Inputs, sameUser bool) stateInfo {
	info := stateInfo{Title: h.o.Title, Provider: h.o.Provider, Status: h.status(in), Now: h.o.Now()}
	if sameUser {
		info.Meta = h.o.Meta
	}
	return info
}

// encoded is l on the wire for generation g, made once, for a same-user
// connection or a network one (without elicit's _meta: see private.go).
func (h *Host) encoded(l *logged, g Generation, sameUser bool) *wired {
	u := 0
	if sameUser {
		u = 1
	}
	if w := l.wire[g][u]; w != nil {
		return w
	}
	w := &wired{}
	a := l.action
	if !sameUser {
		a = withoutMeta(a)
	}
	ch, raw, ok := g.encode(h.o.SessionID, a, h.o.Now())
	if ok {
		w.channel, w.ok = ch, true
		w.msg = notification("action", envelope{Channel: ch, Action: raw, ServerSeq: l.seq, Origin: l.origin})
	}
	l.wire[g][u] = w
	return w
}
