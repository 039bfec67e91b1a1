package netclient

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// guard is the round tripper every request of New goes through: the
// headers for the endpoint's origin, no redirect, capped bodies.
type guard struct {
	next     http.RoundTripper
	endpoint *url.URL
	header   http.Header
}

func (g *guard) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(g.header) > 0 && g.endpoint != nil && sameOrigin(req.URL, g.endpoint) {
		req = req.Clone(req.Context())
		for k, vs := range g.header {
			req.Header.Del(k)
			for _, v := range vs {
				req.Header.Add(k, v)
			}
		}
	}
	resp, err := g.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if loc := resp.Header.Get("Location"); resp.StatusCode/100 == 3 && loc != "" {
		resp.Body.Close()
		to := loc
		if u, err := req.URL.Parse(loc); err == nil {
			to = u.String()
		}
		return nil, &RedirectError{Status: resp.StatusCode, From: g.shown(req.URL), To: Redact(to)}
	}
	switch {
	case resp.StatusCode == http.StatusSwitchingProtocols: // a WebSocket: its reader caps each message
	case IsEventStream(resp):
		resp.Body = &eventCapped{rc: resp.Body}
	default:
		resp.Body = &capped{rc: resp.Body, left: MaxMessageBytes}
	}
	return resp, nil
}

// shown is a request's URL as the user gave it (ws:// stays ws://),
// without secrets.
func (g *guard) shown(u *url.URL) string {
	if g.endpoint != nil && sameOrigin(u, g.endpoint) && u.Path == g.endpoint.Path {
		return Redact(g.endpoint.String())
	}
	return Redact(u.String())
}

// IsEventStream reports whether resp is a text/event-stream, whose events
// are capped one by one (EventParser) rather than the body as a whole.
func IsEventStream(resp *http.Response) bool {
	return strings.HasPrefix(strings.ToLower(resp.Header.Get("Content-Type")), "text/event-stream")
}

// sameOrigin reports whether a and b have one origin: scheme (ws as http,
// wss as https), host and port (the scheme's default when none is given).
func sameOrigin(a, b *url.URL) bool {
	sa, sb := webScheme(a.Scheme), webScheme(b.Scheme)
	return sa == sb && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a, sa) == port(b, sb)
}

func webScheme(s string) string {
	switch s = strings.ToLower(s); s {
	case "ws":
		return "http"
	case "wss":
		return "https"
	}
	return s
}

func port(u *url.URL, scheme string) string {
	if p := u.Port(); p != "" {
		return p
	}
	if scheme == "https" {
		return "443"
	}
	return "80"
}

// RedirectError is a server's answer that points elsewhere: elicit follows
// no redirect, so a token never goes where the user did not send it, and
// wss:// never becomes ws://.
type RedirectError struct {
	Status   int    // the HTTP status
	From, To string // the URL asked and the one it points to, without secrets
}

// Error names where the redirect pointed, for the user to give that URL.
func (e *RedirectError) Error() string {
	return fmt.Sprintf("%s redirects (HTTP %d) to %s; elicit follows no redirect: give that URL", e.From, e.Status, e.To)
}

// Redact shows a URL without what may be secret in it: the userinfo and
// the query's values.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(an unreadable URL)"
	}
	u.User = nil
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{"…"}
		}
		u.RawQuery = q.Encode()
	}
	u.Fragment = ""
	return u.String()
}

// capped is a response body of at most MaxMessageBytes: reading past it
// fails with ErrTooLarge.
type capped struct {
	rc   io.ReadCloser
	left int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, ErrTooLarge
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.rc.Read(p)
	if c.left -= int64(n); c.left < 0 {
		return 0, ErrTooLarge
	}
	return n, err
}

func (c *capped) Close() error { return c.rc.Close() }
