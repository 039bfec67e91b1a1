package testkit

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// Redirect is a server that answers every request with a 307 to Target, a
// server of its own on another port of this machine, which counts the
// requests that reach it and keeps the Authorization header they carried:
// a client that follows no redirect leaves it unreached.
type Redirect struct {
	URL, Target string // the redirecting server's URL; where it points (path included)
	reached     atomic.Int32
	mu          sync.Mutex
	auth        []string
}

// NewRedirect starts both servers, closed when the test ends; the
// redirect points to path on the other one.
func NewRedirect(t *testing.T, path string) *Redirect {
	t.Helper()
	r := &Redirect{}
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.reached.Add(1)
		r.mu.Lock()
		r.auth = append(r.auth, req.Header.Get("Authorization"))
		r.mu.Unlock()
		w.WriteHeader(http.StatusTeapot)
	}))
	t.Cleanup(other.Close)
	r.Target = other.URL + path
	srv := httptest.NewServer(http.RedirectHandler(r.Target, http.StatusTemporaryRedirect))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

// Reached is how many requests reached Target, and the Authorization
// headers they carried.
func (r *Redirect) Reached() (int, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return int(r.reached.Load()), append([]string(nil), r.auth...)
}
