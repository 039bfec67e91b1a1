package acpconn

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"

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
// of them, except reading a stream, which TCP keep-alives and WebSocket
// pings watch instead.
const (
	dialTimeout    = 10 * time.Second // TCP connect and TLS handshake, each
	requestTimeout = 30 * time.Second // one POST or DELETE, its answer included
	// Keep-alive probes find a peer that vanished without closing the
	// connection (a crashed host, a pulled cable) in about 15 s.
	keepIdle, keepInterval, keepCount = 6 * time.Second, 3 * time.Second, 3
)

// network is how a remote link talks to its endpoint: the URL, the
// clients (with the TLS and address rules applied) and the token.
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
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if r.CAFile != "" {
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		pem, err := os.ReadFile(r.CAFile)
		if err != nil {
			return nil, fmt.Errorf("--ca: %w", err)
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--ca %s: no PEM certificate in it", r.CAFile)
		}
		tlsConf.RootCAs = pool
	}
	d := &net.Dialer{Timeout: dialTimeout, KeepAliveConfig: net.KeepAliveConfig{
		Enable: true, Idle: keepIdle, Interval: keepInterval, Count: keepCount}}
	if plaintext(u) && !r.AllowPlaintext {
		// The name was checked (CheckURL); the address it resolves to is
		// checked here, so a name that points off this machine is refused
		// before anything is sent.
		d.Control = loopbackOnly
	}
	jar := r.Jar
	if jar == nil {
		jar = NewCookieJar()
	}
	base := &http.Transport{
		DialContext: d.DialContext, TLSClientConfig: tlsConf, TLSHandshakeTimeout: dialTimeout,
		MaxResponseHeaderBytes: 64 << 10, IdleConnTimeout: 90 * time.Second, ForceAttemptHTTP2: true,
	}
	ws := base.Clone()
	ws.ForceAttemptHTTP2 = false
	ws.TLSClientConfig = tlsConf.Clone()
	ws.TLSClientConfig.NextProtos = []string{"http/1.1"}
	ws.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	// A redirect could take the token to another host or downgrade to
	// plain http: none is followed (the error names where it pointed).
	noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &network{
		u: u, shown: Redact(u.String()), token: r.Token,
		client:   &http.Client{Transport: base, Jar: jar, CheckRedirect: noRedirect},
		wsClient: &http.Client{Transport: ws, Jar: jar, CheckRedirect: noRedirect},
	}, nil
}

// loopbackOnly refuses a connection to an address that is not loopback.
func loopbackOnly(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%w (the name resolved to %s)", ErrPlaintext, host)
	}
	return nil
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

// header is what every request carries: the token, when there is one.
func (n *network) header() http.Header {
	h := http.Header{}
	if n.token != "" {
		h.Set("Authorization", "Bearer "+n.token)
	}
	return h
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
// a redirect names where it pointed, anything else gives the status and
// the start of the server's explanation.
func (n *network) statusError(what string, resp *http.Response) error {
	detail := n.bodyText(resp)
	if what != "" {
		what += ": "
	}
	switch code := resp.StatusCode; {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return &AuthError{Status: code, Endpoint: n.shown, Detail: detail}
	case code >= 300 && code < 400:
		return fmt.Errorf("%s%s redirects (HTTP %d) to %s; elicit follows no redirect: give that URL", what, n.shown, code, Redact(resp.Header.Get("Location")))
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

// request builds a request to the endpoint with the token and headers.
func (n *network) request(ctx context.Context, method string, body io.Reader, h map[string]string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, n.endpoint(), body)
	if err != nil {
		return nil, err
	}
	req.Header = n.header()
	for k, v := range h {
		req.Header.Set(k, v)
	}
	return req, nil
}

// netError words a request that failed before any answer, without the
// token (Go's errors carry the URL, never headers; redact anyway).
func (n *network) netError(what string, err error) error {
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
