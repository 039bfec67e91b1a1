package ahp

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
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
	// 1024: a client further behind is dropped and reconnects).
	MaxMessage int64
	QueueLen   int
}

// Server serves a Host over WebSocket: one JSON-RPC message per text frame,
// the token on the upgrade request (Authorization: Bearer).
type Server struct {
	o    ServerOptions
	h    *Host
	ln   net.Listener
	srv  *http.Server
	base context.Context
	stop context.CancelFunc
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
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, err
	}
	if o.TLS != nil {
		ln = tls.NewListener(ln, o.TLS)
	}
	s := &Server{o: o, h: h, ln: ln}
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
	if !s.o.Insecure && !authorized(r, s.o.Token) {
		w.Header().Set("WWW-Authenticate", "Bearer")
		http.Error(w, "a bearer token is required", http.StatusUnauthorized)
		return
	}
	out := make(chan []byte, s.o.QueueLen)
	ctx, cancel := context.WithCancel(s.base)
	defer cancel()
	peer, err := s.h.Attach(func(b []byte) bool {
		select {
		case out <- b:
			return true
		default:
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
