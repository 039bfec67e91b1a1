package acpconn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elicit-dev/elicit/internal/netclient"
)

// The RFD's headers.
const (
	headerConnection = "Acp-Connection-Id"
	headerSession    = "Acp-Session-Id"
)

// httpLink is a remote agent over Streamable HTTP: each client message is
// a POST to the endpoint (initialize answered 200 with its result and the
// Acp-Connection-Id, everything else 202); the agent's messages arrive on
// long-lived SSE GET streams, one for the connection and one per session,
// merged here into one line stream (each event one whole line).
type httpLink struct {
	*remoteBase

	mu       sync.Mutex
	connID   string
	streams  map[string]*sseStream // by session id; "" is the connection's
	requests map[string]string     // id of each request the agent sent on a session stream -> that session
	sessions sync.WaitGroup        // the sessions' streams being read

	lastInbound atomic.Int64 // unix nanoseconds of the last message from a stream
	delivering  atomic.Int32 // messages being handed on (waiting for the connection)
}

// sseStream is one GET stream: ready is closed once it is open or failed.
type sseStream struct {
	ready chan struct{}
	err   error
}

func newHTTPLink(nw *network, trace func(string)) (*httpLink, error) {
	base, err := newRemoteBase(nw, trace)
	if err != nil {
		return nil, err
	}
	return &httpLink{remoteBase: base, streams: map[string]*sseStream{}, requests: map[string]string{}}, nil
}

func (l *httpLink) kind() string    { return "HTTP+SSE" }
func (l *httpLink) sink() io.Writer { return httpWriter{l} }

// envelope is what the link reads of a client message to route it.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		SessionID string `json:"sessionId"`
	} `json:"params"`
}

// httpWriter posts each message; a POST finishes before the next starts,
// so the agent gets them in order.
type httpWriter struct{ l *httpLink }

func (w httpWriter) Write(p []byte) (int, error) {
	if err := w.l.send(trimLine(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (l *httpLink) send(msg []byte) error {
	select {
	case <-l.done:
		return errors.New("the connection is closed")
	default:
	}
	var env envelope
	_ = json.Unmarshal(msg, &env) // what does not decode is posted as it is, for the server to refuse
	l.mu.Lock()
	connID := l.connID
	sid := env.Params.SessionID
	if env.Method == "" && env.ID != nil { // an answer to the agent's request: on its session
		sid = l.requests[string(env.ID)]
		delete(l.requests, string(env.ID))
	}
	l.mu.Unlock()
	if connID == "" {
		return l.initialize(msg, env)
	}
	if sid != "" {
		if err := l.openStream(sid); err != nil {
			l.refuse(env, err)
			return nil
		}
	}
	return l.post(msg, env, connID, sid)
}

// initialize posts the first message, which must be initialize: its
// answer comes in the POST's body with the connection's id, and the
// connection's stream opens before the answer is handed on.
func (l *httpLink) initialize(msg []byte, env envelope) error {
	if env.Method != "initialize" {
		return errors.New("the first message on an HTTP connection must be initialize")
	}
	ctx, cancel := context.WithTimeout(l.ctx, requestTimeout)
	defer cancel()
	req, err := l.nw.request(ctx, http.MethodPost, bytes.NewReader(msg), map[string]string{"Content-Type": "application/json", "Accept": "application/json"})
	if err != nil {
		return l.fatal(err, false)
	}
	resp, err := l.nw.client.Do(req)
	if err != nil {
		return l.fatal(l.nw.netError("cannot reach", err), false)
	}
	connID := resp.Header.Get(headerConnection)
	if resp.StatusCode != http.StatusOK || connID == "" {
		if resp.StatusCode == http.StatusOK {
			resp.Body.Close()
			return l.fatal(fmt.Errorf("initialize: %s answered without an %s header: is it an ACP endpoint?", l.nw.shown, headerConnection), false)
		}
		return l.fatal(l.nw.statusError("", resp), false)
	}
	body, err := io.ReadAll(resp.Body) // at most MaxLineBytes (netclient)
	resp.Body.Close()
	if err != nil {
		return l.fatal(l.nw.netError("reading the answer to initialize from", err), false)
	}
	l.mu.Lock()
	l.connID = connID
	l.mu.Unlock()
	l.trace(fmt.Sprintf("connected to %s over HTTP+SSE (connection %s)", l.nw.shown, connID))
	if err := l.openStream(""); err != nil {
		return l.fatal(err, false)
	}
	go func() { _ = l.deliver(body) }() // the reader may not read yet: never block the writer on it
	return nil
}

// fatal ends the link with err and returns it.
func (l *httpLink) fatal(err error, lost bool) error {
	l.end(err, lost)
	return err
}

// post sends one message after initialize: 202 (any 2xx) is the answer.
func (l *httpLink) post(msg []byte, env envelope, connID, sid string) error {
	ctx, cancel := context.WithTimeout(l.ctx, requestTimeout)
	defer cancel()
	h := map[string]string{"Content-Type": "application/json", headerConnection: connID}
	if sid != "" {
		h[headerSession] = sid
	}
	req, err := l.nw.request(ctx, http.MethodPost, bytes.NewReader(msg), h)
	if err != nil {
		return err
	}
	resp, err := l.nw.client.Do(req)
	if err != nil {
		if l.ctx.Err() != nil {
			return err
		}
		return l.fatal(fmt.Errorf("the connection to %s was lost: %s", l.nw.shown, l.nw.redact(err.Error())), true)
	}
	if resp.StatusCode/100 == 2 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		return nil
	}
	what := "POST"
	if env.Method != "" {
		what = env.Method
	}
	serr := l.nw.statusError(what, resp)
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		return l.fatal(serr, false)
	case http.StatusNotFound, http.StatusGone:
		return l.fatal(fmt.Errorf("%s no longer knows this connection (HTTP %d)", l.nw.shown, resp.StatusCode), true)
	}
	l.refuse(env, serr)
	return nil
}

// refuse answers a request the server would not take with an error, as
// if from the agent, so the call fails with the reason instead of
// waiting; a refused notification or answer is only traced. The answer is
// handed on from a goroutine: the writer may hold the lock the reader
// needs (the gate answers through it).
func (l *httpLink) refuse(env envelope, err error) {
	l.trace("refused by the server: " + l.nw.redact(err.Error()))
	if env.Method == "" || env.ID == nil {
		return
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": env.ID,
		"error": map[string]any{"code": -32603, "message": l.nw.redact(err.Error())}})
	go func() { _ = l.deliver(b) }()
}

// openStream opens the SSE stream of session sid ("" for the connection)
// unless it is open, and waits, bounded, until the server answered it.
func (l *httpLink) openStream(sid string) error {
	l.mu.Lock()
	st := l.streams[sid]
	if st == nil {
		st = &sseStream{ready: make(chan struct{})}
		l.streams[sid] = st
		if sid != "" {
			l.sessions.Add(1)
		}
		go l.stream(sid, st, l.connID)
	}
	l.mu.Unlock()
	select {
	case <-st.ready:
		return st.err
	case <-l.done:
		return errors.New("the connection is closed")
	case <-time.After(requestTimeout):
		return fmt.Errorf("%s did not open the event stream within %s", l.nw.shown, seconds(requestTimeout))
	}
}

// stream reads one SSE stream until it ends. The connection's stream
// ending ends the link; a session's is opened again by its next message.
func (l *httpLink) stream(sid string, st *sseStream, connID string) {
	ctx, cancel := context.WithCancel(l.ctx)
	defer cancel()
	if sid != "" {
		defer l.sessions.Done()
	}
	h := map[string]string{"Accept": "text/event-stream", headerConnection: connID}
	if sid != "" {
		h[headerSession] = sid
	}
	var resp *http.Response
	req, err := l.nw.request(ctx, http.MethodGet, nil, h)
	if err == nil {
		timer := time.AfterFunc(requestTimeout, cancel) // for the answer's headers only
		resp, err = l.nw.client.Do(req)
		timer.Stop()
	}
	switch {
	case err != nil:
		st.err = l.nw.netError("cannot open the event stream of", err)
	case resp.StatusCode != http.StatusOK:
		st.err = l.nw.statusError("event stream", resp)
	}
	if st.err != nil {
		l.forget(sid, st)
		close(st.ready)
		if sid == "" || IsAuthError(st.err) || isStatus(st.err, http.StatusNotFound) {
			l.end(st.err, !IsAuthError(st.err) && l.ctx.Err() == nil)
		}
		return
	}
	close(st.ready)
	err = netclient.ReadEvents(resp.Body, func(data []byte) error { return l.inbound(sid, data) })
	resp.Body.Close()
	l.forget(sid, st)
	switch {
	case l.ctx.Err() != nil:
	case errors.Is(err, netclient.ErrTooLarge):
		l.end(ErrLineTooLong, false)
	case sid == "":
		why := "closed the event stream"
		if err != nil {
			why = "event stream: " + l.nw.redact(err.Error())
		}
		l.drainSessions(2 * time.Second)
		l.end(fmt.Errorf("the connection to %s was lost: %s", l.nw.shown, why), true)
	default:
		l.trace(fmt.Sprintf("the event stream of session %s ended; its next message opens it again", safeLine(sid)))
	}
}

// drainSessions waits for the sessions' streams to end once the
// connection's has: a server that ends a connection ends them after
// delivering what the agent sent, which is read before the link ends. It
// gives up once they have been idle for d (nothing arrived, nothing waits
// to be handed on).
func (l *httpLink) drainSessions(d time.Duration) {
	done := make(chan struct{})
	go func() {
		l.sessions.Wait()
		close(done)
	}()
	t := time.NewTicker(d / 10)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			if l.delivering.Load() == 0 && time.Since(time.Unix(0, l.lastInbound.Load())) > d {
				return
			}
		}
	}
}

func (l *httpLink) forget(sid string, st *sseStream) {
	l.mu.Lock()
	if l.streams[sid] == st {
		delete(l.streams, sid)
	}
	l.mu.Unlock()
}

// inbound hands on one message from stream sid, noting what routing needs:
// a request on a session's stream is answered on that session, and a
// session named in an answer on the connection's stream gets its stream
// (the server keeps its messages until it is opened).
func (l *httpLink) inbound(sid string, data []byte) error {
	if bytes.Contains(data, []byte(`"id"`)) {
		if f, err := scanFrame(data); err == nil {
			switch {
			case sid != "" && f.method != "" && f.id != nil:
				l.mu.Lock()
				l.requests[string(f.id)] = sid
				l.mu.Unlock()
			case sid == "" && f.method == "" && bytes.Contains(f.result, []byte(`"sessionId"`)):
				var r struct {
					SessionID string `json:"sessionId"`
				}
				if json.Unmarshal(f.result, &r) == nil && r.SessionID != "" {
					go func() { _ = l.openStream(r.SessionID) }()
				}
			}
		}
	}
	l.delivering.Add(1)
	err := l.deliver(data)
	l.delivering.Add(-1)
	l.lastInbound.Store(time.Now().UnixNano())
	return err
}

// stop ends the connection with DELETE (bounded) and closes the streams.
func (l *httpLink) stop() ExitInfo {
	l.mu.Lock()
	connID := l.connID
	l.mu.Unlock()
	select {
	case <-l.done:
	default:
		if connID != "" {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			if req, err := l.nw.request(ctx, http.MethodDelete, nil, map[string]string{headerConnection: connID}); err == nil {
				if resp, err := l.nw.client.Do(req); err == nil {
					resp.Body.Close()
				}
			}
			cancel()
		}
	}
	l.end(errClosedByUs, false)
	return l.exitInfo()
}

// isStatus reports whether err is an HTTP answer with that status.
func isStatus(err error, code int) bool {
	var se *statusErr
	return errors.As(err, &se) && se.code == code
}
