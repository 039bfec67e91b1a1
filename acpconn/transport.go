package acpconn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/netclient"
	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// link is what carries JSON-RPC between this client and the agent: the
// agent's own process over its stdio (process.go), or a remote agent over
// WebSocket (transport_ws.go) or Streamable HTTP with SSE
// (transport_http.go). Everything above it (the throttled reader and its
// caps, the gate, the handler, the session) is the same for all three.
type link interface {
	// lines is the agent's messages, one per line; it ends (EOF) after the
	// last message the agent sent before the link ended.
	lines() io.Reader
	// sink takes the client's messages, one whole message (a line) per
	// Write.
	sink() io.Writer
	// gone is closed when the agent is gone: its process was reaped, or
	// its connection ended.
	gone() <-chan struct{}
	// exitInfo says how it ended; it is read once gone is closed.
	exitInfo() ExitInfo
	// cleanup ends what the agent left behind once it is gone (its
	// process group); it may block up to the grace period.
	cleanup()
	// closeLines stops whatever still feeds lines.
	closeLines()
	// stop ends the agent (or the connection to it) and returns once it
	// is gone; every wait in it is bounded.
	stop() ExitInfo
	// stderrTail is the agent's last stderr lines (empty for a remote agent).
	stderrTail() []string
	// settle waits at most d for tail to be complete.
	settle(d time.Duration)
	// pid is the agent process's id, 0 for a remote agent.
	pid() int
	// kind names the transport for people: "stdio", "WebSocket" or
	// "HTTP+SSE".
	kind() string
	// failure is why the link failed, when it knows better than the
	// connection (a refused token, a server error); nil otherwise.
	failure() error
}

// Remote says how to reach an agent that runs elsewhere, over the
// Streamable HTTP & WebSocket transport of ACP (one endpoint: POST and
// SSE GET streams, or a WebSocket upgrade of a GET).
type Remote struct {
	// URL is the agent's endpoint: https://host/acp, wss://host/acp; plain
	// http:// and ws:// only to a loopback address unless AllowPlaintext.
	URL string
	// Transport forces one transport: "ws" or "http"; "" tries WebSocket
	// first and falls back to HTTP+SSE when the server does not offer it.
	Transport string
	// Token is a bearer token sent in the Authorization header of every
	// request. It is never written to the trace or to an error.
	Token string
	// CAFile is a PEM file of certificates to trust besides the system's
	// (a private CA).
	CAFile string
	// AllowPlaintext permits plain http:// and ws:// to a host that is not
	// loopback: everything, the token included, then crosses the network
	// unencrypted.
	AllowPlaintext bool
	// AllowFS and AllowTerminal declare fs/* and terminal/* to the remote
	// agent: without them it may neither read nor write the session
	// directory here, nor run commands here (its files are not the user's
	// files).
	AllowFS, AllowTerminal bool
	// Jar keeps the server's cookies (session affinity) across
	// reconnects; nil gives each connection a jar of its own.
	Jar CookieJar
	// Reconnects says the front end makes a lost connection again and
	// keeps its open questions for the agent to ask again: the requests of
	// a lost connection are then not closed one by one
	// (question.Withdrawn); question.Gone and AgentExited say the
	// connection was lost.
	Reconnects bool
}

// Transports a Remote may force.
const (
	TransportWS   = "ws"
	TransportHTTP = "http"
)

// ErrPlaintext refuses plain http:// or ws:// to a host that is not
// loopback without Remote.AllowPlaintext.
var ErrPlaintext = netclient.ErrPlaintext

// AuthError is a remote agent's refusal of the credentials (HTTP 401 or
// 403). elicit does not retry it.
type AuthError struct {
	Status   int    // the HTTP status
	Endpoint string // the URL, as shown
	Detail   string // the server's words, cut and made safe
}

// Error says what was refused and what to do.
func (e *AuthError) Error() string {
	s := fmt.Sprintf("%s refused the credentials (HTTP %d %s)", e.Endpoint, e.Status, statusText(e.Status))
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s + "; check the token (--token-env NAME names the variable that holds it)"
}

// IsAuthError reports whether err is a remote agent refusing the token.
func IsAuthError(err error) bool {
	var ae *AuthError
	return errors.As(err, &ae)
}

// CheckURL parses a remote agent's URL and applies the transport rules
// before anything is sent: the scheme is http, https, ws or wss; no
// credentials in the URL (a token belongs in an environment variable,
// never on the command line); plain http and ws only to a loopback host
// unless allowPlaintext. The dialer checks the address again once the
// name is resolved (see dialer).
func CheckURL(raw string, allowPlaintext bool) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("agent URL: %v", err)
	}
	switch u.Scheme {
	case "https", "wss", "http", "ws":
	default:
		return nil, fmt.Errorf("agent URL %s: the scheme must be https, wss, http or ws", Redact(raw))
	}
	if u.Host == "" || u.Hostname() == "" {
		return nil, fmt.Errorf("agent URL %s: no host", Redact(raw))
	}
	if u.User != nil {
		return nil, fmt.Errorf("agent URL %s: credentials do not belong in the URL (it shows in the process list and the shell history): put the token in an environment variable and name it with --token-env", Redact(raw))
	}
	if plaintext(u) && !allowPlaintext && !loopbackName(u.Hostname()) {
		return nil, fmt.Errorf("agent URL %s: %w; %s is not one (use https or wss, or --allow-plaintext to send everything, the token included, unencrypted)", Redact(raw), ErrPlaintext, u.Hostname())
	}
	return u, nil
}

func plaintext(u *url.URL) bool { return u.Scheme == "http" || u.Scheme == "ws" }

// loopbackName reports whether a host names this machine: localhost or a
// loopback IP literal.
func loopbackName(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Redact shows a URL without what may be secret in it: the userinfo and
// the query's values.
func Redact(raw string) string { return netclient.Redact(raw) }

// dialRemote connects to a remote agent: WebSocket first unless HTTP is
// forced, and HTTP+SSE when the server does not upgrade.
func dialRemote(ctx context.Context, r *Remote, trace func(string)) (link, error) {
	u, err := CheckURL(r.URL, r.AllowPlaintext)
	if err != nil {
		return nil, err
	}
	nw, err := newNetwork(u, r)
	if err != nil {
		return nil, err
	}
	switch r.Transport {
	case TransportHTTP:
		return newHTTPLink(nw, trace)
	case "", TransportWS:
	default:
		return nil, fmt.Errorf("transport %q: want ws or http", r.Transport)
	}
	l, err := dialWS(ctx, nw, trace)
	if err == nil {
		return l, nil
	}
	var no *noUpgrade
	if r.Transport == "" && errors.As(err, &no) {
		trace(fmt.Sprintf("the server did not upgrade to WebSocket (%s): using HTTP+SSE", no))
		return newHTTPLink(nw, trace)
	}
	return nil, err
}

// statusText is the status's reason phrase, or "".
func statusText(code int) string {
	if t := httpStatusText(code); t != "" {
		return t
	}
	return "status"
}

// startRemote connects to a remote agent and runs initialize.
func startRemote(ctx context.Context, cfg Config) (*Conn, error) {
	r := cfg.Remote
	root, alias, fsRoot, err := remoteRoot(cfg.Dir, r.AllowFS || r.AllowTerminal)
	if err != nil {
		return nil, err
	}
	tr := newTracer(cfg.Log)
	l, err := dialRemote(ctx, r, tr.note)
	if err != nil {
		if fsRoot != nil {
			fsRoot.Close()
		}
		return nil, err
	}
	lc := cfg.Lifecycle
	if lc == nil {
		lc = procgroup.Default
	}
	return connect(ctx, cfg, l, tr, root, alias, fsRoot, lc)
}

// remoteRoot is the directory sent to a remote agent. Only when the agent
// may touch this machine (local) is it a directory here, opened as the
// root of every fs access; otherwise it names a directory of the agent's
// machine and nothing here is opened.
func remoteRoot(dir string, local bool) (root, alias string, fsRoot *os.Root, err error) {
	if local {
		if root, alias, err = sessionRoot(dir); err != nil {
			return "", "", nil, err
		}
		if fsRoot, err = os.OpenRoot(root); err != nil {
			return "", "", nil, fmt.Errorf("working directory: %w", err)
		}
		return root, alias, fsRoot, nil
	}
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return "", "", nil, err
		}
	}
	if !filepath.IsAbs(dir) && !strings.HasPrefix(dir, "/") {
		if dir, err = filepath.Abs(dir); err != nil {
			return "", "", nil, err
		}
	}
	return dir, dir, nil, nil
}

// offersFS and offersTerminal say whether fs/* and terminal/* are
// declared: always to an agent elicit started here; to a remote agent
// only when the user allowed it.
func (c *Conn) offersFS() bool { return c.cfg.Remote == nil || c.cfg.Remote.AllowFS }

func (c *Conn) offersTerminal() bool { return c.cfg.Remote == nil || c.cfg.Remote.AllowTerminal }

// refusedRemote is why a request the client serves is refused to this
// agent ("" when it is not): a remote agent gets fs/* and terminal/* only
// when allowed, whatever it asks.
func (c *Conn) refusedRemote(method string) string {
	switch {
	case strings.HasPrefix(method, "fs/") && !c.offersFS():
		return "this client does not give a remote agent its files (the user did not allow fs/*)"
	case strings.HasPrefix(method, "terminal/") && !c.offersTerminal():
		return "this client does not run commands for a remote agent (the user did not allow terminal/*)"
	}
	return ""
}

// Transport names how the agent is reached: "stdio", "WebSocket" or
// "HTTP+SSE".
func (c *Conn) Transport() string { return c.link.kind() }

// Endpoint is a remote agent's URL as shown (no secrets), "" for an agent
// elicit started.
func (c *Conn) Endpoint() string {
	if c.cfg.Remote == nil {
		return ""
	}
	return Redact(c.cfg.Remote.URL)
}

// IsRemote reports whether the agent is reached over the network.
func (c *Conn) IsRemote() bool { return c.cfg.Remote != nil }

// safeLine is a text from the network made safe to show, and short.
func safeLine(s string) string { return sanitize.Summary(s, 200) }

// lostRemote reports whether the connection to a remote agent whose
// front end reconnects was lost: its requests are then not closed one by
// one (AgentExited, which follows, says why, and the front end keeps the
// questions open for the agent to ask again).
func (c *Conn) lostRemote() bool {
	if c.link == nil || c.cfg.Remote == nil || !c.cfg.Remote.Reconnects { // (a test builds a Conn around its handler alone)
		return false
	}
	select {
	case <-c.link.gone():
		return c.link.exitInfo().Lost
	default:
		return false
	}
}

// IsAgentError reports whether err is the agent's own JSON-RPC error
// answer (it refused), not a connection that failed.
func IsAgentError(err error) bool {
	var re *acp.RequestError
	return errors.As(err, &re)
}
