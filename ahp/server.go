package ahp

import (
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"strings"
	"time"
)

// ServerOptions configure the WebSocket transport.
type ServerOptions struct {
	Addr string // host:port; default 127.0.0.1:0
	// Token is the bearer token every client must send; "" is refused
	// unless Insecure is set.
	Token    string
	Insecure bool
	// TLS serves wss:// with this configuration; AllowRemote lets a
	// non-loopback address serve plain ws://.
	TLS         *tls.Config
	AllowRemote bool
	// MaxMessage caps one message from a client (default 1 MiB);
	// QueueLen the messages waiting to be written to one client (default
	// 1024), MaxQueueBytes their bytes (default 32 MiB; one message alone
	// may be larger): a client further behind is dropped and reconnects.
	MaxMessage    int64
	QueueLen      int
	MaxQueueBytes int64
	// AllowHosts are the names clients may reach a plain ws:// host by,
	// besides loopback addresses and localhost (see hostAllowed).
	AllowHosts []string
}

// Server serves a Host over WebSocket: one JSON-RPC message per text frame,
// the token on the upgrade request (Authorization: Bearer).
type Server struct {
	o ServerOptions
	// remote: the address is not a loopback one, so clients reach it by
	// the machine's addresses.
	remote bool
	h      *Host
	ln     net.Listener
	srv    *http.Server
	ws     *Handler
}

// Listen checks the policy (token, loopback or TLS) and listens.
func Listen(o ServerOptions, h *Host) (*Server, error) {
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.Token == "" && !o.Insecure {
		return nil, ErrNoToken
	}
	if err := CheckListen(o.Addr, o.TLS != nil, o.AllowRemote); err != nil {
		return nil, err
	}
	if o.MaxMessage <= 0 {
		o.MaxMessage = 1 << 20
	}
	if o.QueueLen <= 0 {
		o.QueueLen = 1024
	}
	if o.MaxQueueBytes <= 0 {
		o.MaxQueueBytes = 32 << 20
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, err
	}
	if o.TLS != nil {
		ln = tls.NewListener(ln, o.TLS)
	}
	host, _, _ := net.SplitHostPort(o.Addr)
	s := &Server{o: o, h: h, ln: ln, remote: !Loopback(host)}
	if !s.remote && host != "" && net.ParseIP(strings.Trim(host, "[]")) == nil {
		s.o.AllowHosts = append(s.o.AllowHosts, host) // a loopback name given to --listen
	}
	s.ws = NewHandler(h, HandlerOptions{MaxMessage: o.MaxMessage, QueueLen: o.QueueLen, MaxQueueBytes: o.MaxQueueBytes})
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	return s, nil
}

// URL is the address clients dial.
func (s *Server) URL() string {
	scheme := "ws://"
	if s.o.TLS != nil {
		scheme = "wss://"
	}
	return scheme + s.ln.Addr().String() + "/"
}

// Serve serves until Close.
func (s *Server) Serve() error {
	err := s.srv.Serve(s.ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Close stops listening and ends every connection.
func (s *Server) Close() error {
	s.ws.Close()
	return s.srv.Close()
}

// ServeHTTP upgrades an authorized request and runs the connection.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.o.TLS == nil && !hostAllowed(r.Host, s.remote, s.o.AllowHosts) {
		http.Error(w, "this host is reached by a loopback address or localhost, not by the name in Host", http.StatusForbidden)
		return
	}
	if !s.o.Insecure && !authorized(r, s.o.Token) {
		w.Header().Set("WWW-Authenticate", "Bearer")
		http.Error(w, "a bearer token is required", http.StatusUnauthorized)
		return
	}
	s.ws.ServeHTTP(w, r)
}
