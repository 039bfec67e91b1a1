package ahp

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
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
	base   context.Context
	stop   context.CancelFunc
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
	s.base, s.stop = context.WithCancel(context.Background())
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
	s.stop()
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
	out := make(chan []byte, s.o.QueueLen)
	var queued atomic.Int64 // bytes in out
	ctx, cancel := context.WithCancel(s.base)
	defer cancel()
	peer, err := s.h.Attach(func(b []byte) bool {
		n := int64(len(b))
		if q := queued.Add(n); q > s.o.MaxQueueBytes && q != n {
			queued.Add(-n)
			return false
		}
		select {
		case out <- b:
			return true
		default:
			queued.Add(-n)
			return false
		}
	}, cancel)
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	defer peer.Detach()
	// The browser's Origin check stays on: a web page cannot reach the
	// host through the user's browser.
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(s.o.MaxMessage)
	go func() {
		for {
			select {
			case b := <-out:
				wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
				err := c.Write(wctx, websocket.MessageText, b)
				wcancel()
				queued.Add(-int64(len(b)))
				if err != nil {
					cancel()
					return
				}
			case <-ctx.Done():
				c.Close(websocket.StatusGoingAway, "")
				return
			}
		}
	}()
	for {
		typ, data, err := c.Read(ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			c.Close(websocket.StatusUnsupportedData, "text frames only")
			return
		}
		peer.Handle(data)
	}
}
