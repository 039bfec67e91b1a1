package acpconn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Liveness of a WebSocket link: while nothing arrives for pingEvery (and
// the connection is not the one holding messages back), a ping must be
// answered within pongWait, or the connection is reported lost.
const (
	pingEvery = 5 * time.Second
	pongWait  = 10 * time.Second
)

// wsLink is a remote agent over one WebSocket: a GET with Upgrade on the
// agent's endpoint, then JSON-RPC messages as text frames both ways (the
// RFD's WebSocket profile).
type wsLink struct {
	*remoteBase
	ws       *websocket.Conn
	connID   string
	lastRead atomic.Int64 // unix nanoseconds of the last frame or pong
	holding  atomic.Bool  // the reader waits for the connection to take a message
	stopping atomic.Bool  // elicit is closing it
	buf      []byte       // the frame being read, reused
}

// noUpgrade is a server's answer to the upgrade that means it does not
// offer WebSocket here (any status but 101, a redirect or a refusal of
// the credentials).
type noUpgrade struct{ status int }

func (e *noUpgrade) Error() string {
	return fmt.Sprintf("HTTP %d %s", e.status, statusText(e.status))
}

func dialWS(ctx context.Context, nw *network, trace func(string)) (link, error) {
	dctx, cancel := context.WithTimeout(ctx, 2*dialTimeout)
	defer cancel()
	base, err := newRemoteBase(nw, trace)
	if err != nil {
		return nil, err
	}
	l := &wsLink{remoteBase: base}
	ws, resp, err := websocket.Dial(dctx, nw.u.String(), &websocket.DialOptions{
		HTTPClient:     nw.wsClient, // the token with it: only to the endpoint's origin
		OnPongReceived: func(context.Context, []byte) { l.seen() },
	})
	if err != nil {
		l.cancel()
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			switch c := resp.StatusCode; {
			case c == http.StatusUnauthorized || c == http.StatusForbidden:
				return nil, nw.statusError("WebSocket", resp)
			}
			return nil, &noUpgrade{status: resp.StatusCode}
		}
		return nil, nw.netError("cannot reach", err)
	}
	// A message over MaxLineBytes ends the link with ErrLineTooLong: the
	// library stops reading it at the limit and closes with 1009 (message
	// too big), so the rest of it is never read (as frames, or at all).
	ws.SetReadLimit(MaxLineBytes)
	l.ws, l.connID = ws, resp.Header.Get("Acp-Connection-Id")
	l.onEnd = func() { ws.CloseNow() }
	l.seen()
	if l.connID != "" {
		trace(fmt.Sprintf("connected to %s over WebSocket (connection %s)", nw.shown, l.connID))
	} else { // the server names no connection (qwen serve)
		trace(fmt.Sprintf("connected to %s over WebSocket", nw.shown))
	}
	go l.read()
	go l.watch()
	return l, nil
}

func (l *wsLink) kind() string        { return "WebSocket" }
func (l *wsLink) sink() io.Writer     { return wsWriter{l} }
func (l *wsLink) seen()               { l.lastRead.Store(time.Now().UnixNano()) }
func (l *wsLink) idle() time.Duration { return time.Since(time.Unix(0, l.lastRead.Load())) }

// read streams each text frame to the connection as one line; binary
// frames are ignored, as the RFD says.
func (l *wsLink) read() {
	for {
		// No context: the socket is closed when the link ends, which ends
		// the read (a context would cost a timer per frame).
		typ, r, err := l.ws.Reader(context.Background())
		if err != nil {
			l.lose(err)
			return
		}
		l.seen()
		if typ != websocket.MessageText {
			if _, err := io.Copy(io.Discard, r); err != nil {
				l.lose(err)
				return
			}
			continue
		}
		l.holding.Store(true)
		err = l.deliverFrame(r)
		l.holding.Store(false)
		if err != nil {
			l.lose(err)
			return
		}
	}
}

// lose ends the link for a read that failed: lost (worth a reconnect)
// unless elicit closed it or the agent broke the message limit.
func (l *wsLink) lose(err error) {
	err = l.readError(err)
	l.end(err, err != errClosedByUs && !errors.Is(err, ErrLineTooLong))
}

// deliverFrame hands one message to the connection as one line; a message
// over MaxLineBytes fails to read (see SetReadLimit in dialWS).
func (l *wsLink) deliverFrame(r io.Reader) error {
	b := bytes.NewBuffer(l.buf[:0])
	_, err := b.ReadFrom(r)
	msg := b.Bytes()
	if l.buf = msg[:0]; cap(msg) > keepLineBuffer {
		l.buf = nil
	}
	if err != nil {
		return err
	}
	l.seen()
	return l.deliver(msg)
}

// readError words how the socket ended.
func (l *wsLink) readError(err error) error {
	if errors.Is(err, websocket.ErrMessageTooBig) {
		return ErrLineTooLong // the library closed the socket with 1009
	}
	if l.stopping.Load() || l.ctx.Err() != nil {
		return errClosedByUs
	}
	switch websocket.CloseStatus(err) {
	case websocket.StatusNormalClosure, websocket.StatusGoingAway:
		return fmt.Errorf("%s closed the connection", l.nw.shown)
	case -1:
		return fmt.Errorf("the connection to %s was lost: %s", l.nw.shown, l.nw.redact(err.Error()))
	}
	var ce websocket.CloseError
	errors.As(err, &ce)
	return fmt.Errorf("%s closed the connection (%d %s)", l.nw.shown, ce.Code, sanitizeReason(ce.Reason))
}

// watch pings a quiet connection and ends one whose pong does not come.
// A connection whose messages wait for the client (backpressure) is not
// pinged: its pong would wait behind them.
func (l *wsLink) watch() {
	t := time.NewTicker(pingEvery / 2)
	defer t.Stop()
	for {
		select {
		case <-l.done:
			return
		case <-t.C:
		}
		if l.holding.Load() || l.idle() < pingEvery {
			continue
		}
		ctx, cancel := context.WithTimeout(l.ctx, pongWait)
		err := l.ws.Ping(ctx)
		cancel()
		if err != nil && l.ctx.Err() == nil && !l.holding.Load() {
			l.end(fmt.Errorf("the connection to %s was lost: no answer to a ping within %s", l.nw.shown, pongWait), true)
			l.ws.CloseNow()
			return
		}
	}
}

// stop closes the socket (the server then ends the connection and, by the
// RFD, its sessions stay only if the agent keeps them); bounded.
func (l *wsLink) stop() ExitInfo {
	l.stopping.Store(true)
	closed := make(chan struct{})
	go func() {
		l.ws.Close(websocket.StatusNormalClosure, "")
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(2 * time.Second):
		l.ws.CloseNow()
	}
	l.end(errClosedByUs, false)
	return l.exitInfo()
}

// wsWriter sends each message as one text frame.
type wsWriter struct{ l *wsLink }

func (w wsWriter) Write(p []byte) (int, error) {
	ctx, cancel := context.WithTimeout(w.l.ctx, requestTimeout)
	defer cancel()
	if err := w.l.ws.Write(ctx, websocket.MessageText, trimLine(p)); err != nil {
		if w.l.ctx.Err() == nil {
			w.l.end(fmt.Errorf("the connection to %s was lost: %s", w.l.nw.shown, w.l.nw.redact(err.Error())), true)
		}
		return 0, err
	}
	return len(p), nil
}

// sanitizeReason is a close reason made safe to show.
func sanitizeReason(s string) string {
	s = string(bytes.TrimSpace([]byte(s)))
	if s == "" {
		return "no reason given"
	}
	return safeLine(s)
}
