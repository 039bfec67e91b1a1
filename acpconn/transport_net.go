package acpconn

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/internal/netclient"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// CookieJar keeps a server's cookies; the RFD requires clients to return
// them (session affinity behind a load balancer).
type CookieJar = http.CookieJar

// NewCookieJar returns an empty in-memory jar, to keep in a Remote across
// reconnects.
func NewCookieJar() CookieJar {
	j, _ := cookiejar.New(nil) // never fails without options
	return j
}

// Timeouts of a remote link. Every wait on the network is bounded by one
// of them, except reading a stream, which TCP keep-alives (netclient) and
// WebSocket pings watch instead.
const (
	dialTimeout    = netclient.DialTimeout // TCP connect and TLS handshake, each
	requestTimeout = 30 * time.Second      // one POST or DELETE, its answer included
)

// network is how a remote link talks to its endpoint: the URL and the
// clients (netclient's: no redirect, the token only to the endpoint's
// origin, capped bodies; with the TLS and address rules applied).
type network struct {
	u     *url.URL
	shown string // the URL as shown: without the query's values
	token string
	// client serves POST, DELETE and the SSE streams (HTTP/2 over TLS when
	// the server offers it); wsClient the WebSocket upgrade, which needs
	// HTTP/1.1.
	client, wsClient *http.Client
}

func newNetwork(u *url.URL, r *Remote) (*network, error) {
	jar := r.Jar
	if jar == nil {
		jar = NewCookieJar()
	}
	o := netclient.Options{Endpoint: u, CAFile: r.CAFile, Jar: jar,
		// The name was checked (CheckURL); the address it resolves to is
		// checked by the dialer, so a name that points off this machine is
		// refused before anything is sent.
		LoopbackOnly: plaintext(u) && !r.AllowPlaintext}
	if r.Token != "" {
		o.Header = http.Header{"Authorization": {"Bearer " + r.Token}}
	}
	client, err := netclient.New(o)
	if err != nil {
		return nil, err
	}
	o.HTTP1 = true
	ws, err := netclient.New(o)
	if err != nil {
		return nil, err
	}
	return &network{u: u, shown: Redact(u.String()), token: r.Token, client: client, wsClient: ws}, nil
}

// endpoint is the URL for plain HTTP requests (ws:// becomes http://).
func (n *network) endpoint() string {
	u := *n.u
	switch u.Scheme {
	case "ws":
		u.Scheme = "http"
	case "wss":
		u.Scheme = "https"
	}
	return u.String()
}

// redact removes the token from a text (an error, a server's body), in
// case anything echoed it.
func (n *network) redact(s string) string {
	if n.token != "" {
		s = strings.ReplaceAll(s, n.token, "[token]")
	}
	return s
}

// statusError words a refused request: a refused token is an AuthError,
// anything else gives the status and the start of the server's
// explanation (a redirect never gets here: see netError).
func (n *network) statusError(what string, resp *http.Response) error {
	detail := n.bodyText(resp)
	if what != "" {
		what += ": "
	}
	switch code := resp.StatusCode; {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return &AuthError{Status: code, Endpoint: n.shown, Detail: detail}
	default:
		s := fmt.Sprintf("%s%s answered HTTP %d %s", what, n.shown, code, statusText(code))
		if detail != "" {
			s += ": " + detail
		}
		return &statusErr{code: code, msg: s}
	}
}

// statusErr is an HTTP status other than the ones with their own error.
type statusErr struct {
	code int
	msg  string
}

func (e *statusErr) Error() string { return e.msg }

// bodyText is the start of a response's body as one safe line; the body
// is drained (a little) and closed.
func (n *network) bodyText(resp *http.Response) string {
	if resp.Body == nil {
		return ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
	return sanitize.Summary(n.redact(strings.TrimSpace(string(b))), 200)
}

// request builds a request to the endpoint with headers h (the client adds
// the token).
func (n *network) request(ctx context.Context, method string, body io.Reader, h map[string]string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, n.endpoint(), body)
	if err != nil {
		return nil, err
	}
	for k, v := range h {
		req.Header.Set(k, v)
	}
	return req, nil
}

// netError words a request that failed before any answer, without the
// token (Go's errors carry the URL, never headers; redact anyway). A
// redirect says where it pointed, and a body over the limit is
// ErrLineTooLong.
func (n *network) netError(what string, err error) error {
	var re *netclient.RedirectError
	if errors.As(err, &re) {
		return re
	}
	if errors.Is(err, netclient.ErrTooLarge) {
		return ErrLineTooLong
	}
	var ue *url.Error
	if errors.As(err, &ue) { // its text repeats the method and the URL
		err = ue.Err
	}
	hint := ""
	var ua x509.UnknownAuthorityError
	if errors.As(err, &ua) {
		hint = " (a server with a private CA: name the CA's certificate with --ca FILE)"
	}
	return fmt.Errorf("%s %s: %s%s", what, n.shown, n.redact(err.Error()), hint)
}

func httpStatusText(code int) string { return http.StatusText(code) }
