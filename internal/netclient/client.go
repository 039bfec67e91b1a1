// Package netclient is the one HTTP client setup for every connection
// elicit makes to another machine: a remote ACP agent (--url), an MCP
// server (elicit mcp --url) and an AHP host (elicit attach). It follows no
// redirect, sends the caller's headers (a token, --header) only to the
// endpoint's origin, and caps what a peer can make elicit hold: one
// message, whether a response body, a server-sent event or a WebSocket
// message, is at most MaxMessageBytes.
//
//	u, _ := url.Parse("https://agent.example/acp")
//	hc, err := netclient.New(netclient.Options{Endpoint: u, Header: http.Header{"Authorization": {"Bearer " + token}}})
package netclient

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"syscall"
	"time"
)

// The caps and timeouts every outgoing connection shares.
const (
	// MaxMessageBytes is the most one message from a peer may hold: an
	// ACP line (on stdio as over the network), an MCP response body, a
	// server-sent event's data, a WebSocket message.
	MaxMessageBytes = 10 << 20
	// MaxHeaderBytes bounds a response's headers.
	MaxHeaderBytes = 64 << 10
	// DialTimeout bounds a TCP connect and a TLS handshake, each.
	DialTimeout = 10 * time.Second
	// Keep-alive probes find a peer that vanished without closing the
	// connection (a crashed host, a pulled cable) in about 15 s.
	keepIdle, keepInterval, keepCount = 6 * time.Second, 3 * time.Second, 3
)

// ErrTooLarge ends a response body or an event stream whose message is
// over MaxMessageBytes; what was read of it is never handed on whole.
var ErrTooLarge = fmt.Errorf("a message over %d MiB", MaxMessageBytes>>20)

// ErrPlaintext refuses a connection that Options.LoopbackOnly keeps to
// this machine, to an address that is not loopback.
var ErrPlaintext = errors.New("plain http:// and ws:// are allowed only to a loopback address")

// Options say where the client talks to and how.
type Options struct {
	// Endpoint is the URL talked to: Header goes to its origin (scheme,
	// host and port, ws counting as http and wss as https) and nowhere
	// else.
	Endpoint *url.URL
	// Header is sent with every request to the endpoint's origin: a
	// bearer token, the user's --header values.
	Header http.Header
	// CAFile is a PEM file of certificates to trust besides the system's.
	CAFile string
	// LoopbackOnly refuses to connect to an address that is not loopback
	// (ErrPlaintext), checked on the address a name resolved to.
	LoopbackOnly bool
	// Jar keeps the server's cookies; nil keeps none.
	Jar http.CookieJar
	// HTTP1 speaks HTTP/1.1 only, as a WebSocket upgrade needs.
	HTTP1 bool
	// Base is the round tripper under the setup (a test's); nil builds
	// one from the fields above.
	Base http.RoundTripper
}

// New returns a client for o: no redirect is followed (a 3xx answer is a
// *RedirectError), Header reaches only the endpoint's origin, and a
// response body other than an event stream or a WebSocket is capped at
// MaxMessageBytes (ErrTooLarge); an event stream's events are capped by
// the same limit (see EventParser).
func New(o Options) (*http.Client, error) {
	base := o.Base
	if base == nil {
		t, err := transport(o)
		if err != nil {
			return nil, err
		}
		base = t
	}
	return &http.Client{
		Transport: &guard{next: base, endpoint: o.Endpoint, header: o.Header},
		Jar:       o.Jar,
		// The guard turns a redirect into an error before the client sees
		// it; this stays as a second lock.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}, nil
}

// transport is the round tripper of New: TLS 1.2 at least (with the CA
// file's certificates), bounded dials with keep-alive probes, bounded
// headers, the environment's proxy, and HTTP/2 when offered unless HTTP1.
func transport(o Options) (*http.Transport, error) {
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if o.CAFile != "" {
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		pem, err := os.ReadFile(o.CAFile)
		if err != nil {
			return nil, fmt.Errorf("--ca: %w", err)
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--ca %s: no PEM certificate in it", o.CAFile)
		}
		tlsConf.RootCAs = pool
	}
	d := &net.Dialer{Timeout: DialTimeout, KeepAliveConfig: net.KeepAliveConfig{
		Enable: true, Idle: keepIdle, Interval: keepInterval, Count: keepCount}}
	if o.LoopbackOnly {
		d.Control = LoopbackOnly
	}
	t := &http.Transport{
		Proxy: http.ProxyFromEnvironment, DialContext: d.DialContext, TLSClientConfig: tlsConf, TLSHandshakeTimeout: DialTimeout,
		MaxResponseHeaderBytes: MaxHeaderBytes, IdleConnTimeout: 90 * time.Second, ForceAttemptHTTP2: !o.HTTP1,
	}
	if o.HTTP1 {
		t.TLSClientConfig.NextProtos = []string{"http/1.1"}
		t.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	}
	return t, nil
}

// LoopbackOnly is a dialer's Control that refuses an address that is not
// loopback (ErrPlaintext).
func LoopbackOnly(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%w (the name resolved to %s)", ErrPlaintext, host)
	}
	return nil
}
