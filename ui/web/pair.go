package web

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"
)

// PairTTL is how long a pairing link works: five minutes, once.
const PairTTL = 5 * time.Minute

// cookieName is the paired device's cookie: "ID.SECRET".
const cookieName = "elicit_device"

// cookieAge is how long a browser keeps the cookie: 400 days, the most
// Chromium keeps any.
const cookieAge = 400 * 24 * time.Hour

// maxPendingTokens bounds the pairing links waiting at once.
const maxPendingTokens = 64

// tokens are the pairing links not yet used: by their hash (a token is
// never kept), with when each expires.
type tokens struct {
	mu      sync.Mutex
	pending map[string]time.Time
	now     func() time.Time
}

// issue makes a new one-time token of 128 random bits, expiring after
// PairTTL, and returns it with its expiry.
func (t *tokens) issue() (string, time.Time) {
	tok := randomText(16)
	now := t.now()
	t.mu.Lock()
	defer t.mu.Unlock()
	for h, exp := range t.pending {
		if !now.Before(exp) || len(t.pending) >= maxPendingTokens {
			delete(t.pending, h)
		}
	}
	exp := now.Add(PairTTL)
	t.pending[hashOf(tok)] = exp
	return tok, exp
}

// take spends tok: true when it was issued, unused and unexpired. Used or
// not, it is gone.
func (t *tokens) take(tok string) bool {
	if tok == "" {
		return false
	}
	h := hashOf(tok)
	t.mu.Lock()
	defer t.mu.Unlock()
	exp, ok := t.pending[h]
	delete(t.pending, h)
	return ok && t.now().Before(exp)
}

// pairReply is what POST /api/pair answers.
type pairReply struct {
	Device  string `json:"device,omitempty"`
	Message string `json:"message,omitempty"`
}

// pair trades a pairing token for a device's cookie: a new device in the
// store (only its secret's hash is kept), the secret in an HttpOnly,
// SameSite=Strict cookie, Secure when the page is served over HTTPS (by
// elicit, or by a proxy that says so).
func (s *Server) pair(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Token string `json:"token"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1024)).Decode(&body); err != nil {
		writeJSON(w, http.StatusBadRequest, pairReply{Message: "the pairing request could not be read"})
		return
	}
	if !s.tokens.take(body.Token) {
		s.log("a pairing link was refused: used already, expired, or never issued")
		writeJSON(w, http.StatusForbidden, pairReply{Message: "This pairing link was used already or has expired. Run elicit inbox pair on the computer for a new one."})
		return
	}
	dev, cookie, err := s.devices.Add(deviceName(r.UserAgent()), s.o.Now())
	if err != nil {
		s.log("pairing failed: " + err.Error())
		writeJSON(w, http.StatusInternalServerError, pairReply{Message: "elicit could not keep the pairing: " + err.Error()})
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: cookie, Path: "/", MaxAge: int(cookieAge / time.Second),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: secure(r)})
	s.log("paired " + dev.Name + " (device " + dev.ID + ")")
	writeJSON(w, http.StatusOK, pairReply{Device: dev.Name})
}

// secure reports whether the page reached the browser over HTTPS: served
// with TLS, or through a proxy on this machine that terminated it
// (tailscale serve says X-Forwarded-Proto: https). A forged header only
// makes the cookie stricter.
func secure(r *http.Request) bool {
	return r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"
}

// device is the paired device the request's cookie names, if any.
func (s *Server) device(r *http.Request) (Device, bool) {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return Device{}, false
	}
	return s.devices.Check(c.Value)
}

// PairURL is a new pairing link: the page's URL with a one-time token in
// its fragment (#pair=...), which the browser never sends to a server nor
// puts in a Referer; it expires at the time returned.
func (s *Server) PairURL() (string, time.Time) {
	tok, exp := s.tokens.issue()
	return s.base + "#pair=" + tok, exp
}
