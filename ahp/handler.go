package ahp

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// HandlerOptions configure a Handler. Zero values are the defaults.
type HandlerOptions struct {
	// SameUser: the transport checked that every caller is the host's
	// own user (the inbox's Unix socket), so they see and may answer the
	// requests asked with RequestPrivate (see Host.AttachSameUser).
	SameUser bool
	// MaxMessage caps one message from a client (default 1 MiB);
	// QueueLen the messages waiting to be written to one client (default
	// 1024), MaxQueueBytes their bytes (default 32 MiB; one message alone
	// may be larger): a client further behind is dropped and reconnects.
	MaxMessage    int64
	QueueLen      int
	MaxQueueBytes int64
}

// Handler serves a Host over WebSocket (one JSON-RPC message per text
// frame) to callers its transport already admitted: Server puts a token
// and a Host check in front of it; the inbox's Unix socket, a peer
// credential check (ListenUnix). Close ends every connection it serves.
type Handler struct {
	h      *Host
	o      HandlerOptions
	base   context.Context
	cancel context.CancelFunc
}

// NewHandler returns the WebSocket handler of host h.
func NewHandler(host *Host, o HandlerOptions) *Handler {
	if o.MaxMessage <= 0 {
		o.MaxMessage = 1 << 20
	}
	if o.QueueLen <= 0 {
		o.QueueLen = 1024
	}
	if o.MaxQueueBytes <= 0 {
		o.MaxQueueBytes = 32 << 20
	}
	h := &Handler{h: host, o: o}
	h.base, h.cancel = context.WithCancel(context.Background())
	return h
}

// Close ends every connection.
func (h *Handler) Close() { h.cancel() }

// attach connects one client to the host, as the handler's transport
// vouches for it.
func (h *Handler) attach(send func([]byte) bool, close func()) (*Peer, error) {
	return h.h.attach(send, close, h.o.SameUser)
}

// ServeHTTP upgrades the request and runs the connection until it ends.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	out := make(chan []byte, h.o.QueueLen)
	var queued atomic.Int64 // bytes in out
	ctx, cancel := context.WithCancel(h.base)
	defer cancel()
	peer, err := h.attach(func(b []byte) bool {
		n := int64(len(b))
		if q := queued.Add(n); q > h.o.MaxQueueBytes && q != n {
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
	c.SetReadLimit(h.o.MaxMessage)
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
