package acpserve

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/coder/websocket"
)

// servePost takes one client message: initialize makes a connection and
// is answered at once; anything else goes to the agent and is answered
// 202, its answer coming on a stream.
func (s *Server) servePost(w http.ResponseWriter, r *http.Request) {
	if ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); !strings.EqualFold(strings.TrimSpace(ct), "application/json") {
		http.Error(w, "Unsupported Media Type", http.StatusUnsupportedMediaType)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		http.Error(w, "Invalid JSON", http.StatusBadRequest)
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			SessionID string `json:"sessionId"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &m) != nil {
		http.Error(w, "Invalid JSON", http.StatusBadRequest)
		return
	}
	connID := r.Header.Get("Acp-Connection-Id")
	if m.Method == "initialize" {
		if connID != "" {
			http.Error(w, "Initialize not allowed on existing connection", http.StatusBadRequest)
			return
		}
		s.initialize(w, body)
		return
	}
	if connID == "" {
		http.Error(w, "Missing Acp-Connection-Id", http.StatusBadRequest)
		return
	}
	c := s.conn(r)
	if c == nil {
		http.Error(w, "Unknown Acp-Connection-Id", http.StatusNotFound)
		return
	}
	sid := r.Header.Get("Acp-Session-Id")
	if m.Params.SessionID != "" && sid != m.Params.SessionID {
		http.Error(w, "Missing or mismatched Acp-Session-Id", http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	switch {
	case m.Method != "" && m.ID != nil:
		route := sid
		if m.Method == "session/load" {
			route = ""
		}
		c.routes[string(m.ID)] = route
	case m.Method == "" && m.ID != nil:
		if want := c.requests[string(m.ID)]; want != sid {
			c.mu.Unlock()
			http.Error(w, "Mismatched Acp-Session-Id", http.StatusBadRequest)
			return
		}
		delete(c.requests, string(m.ID))
	}
	c.mu.Unlock()
	if c.write(body) != nil {
		http.Error(w, "Unknown Acp-Connection-Id", http.StatusNotFound)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// initialize starts a connection's agent and answers with its result.
func (s *Server) initialize(w http.ResponseWriter, body []byte) {
	a, err := s.NewAgent()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	c := newConn(a)
	line, err := c.init(body)
	if err != nil {
		c.close()
		http.Error(w, "Initialize failed", http.StatusInternalServerError)
		return
	}
	s.add(c)
	go c.route()
	w.Header().Set("Acp-Connection-Id", c.id)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(line)
}

// init sends initialize to the agent and reads its answer.
func (c *conn) init(msg []byte) ([]byte, error) {
	if err := c.write(msg); err != nil {
		return nil, err
	}
	return c.readLine()
}

// serveSSE streams one box: the connection's, or a session's.
func (s *Server) serveSSE(w http.ResponseWriter, r *http.Request) {
	if !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		http.Error(w, "Not Acceptable", http.StatusNotAcceptable)
		return
	}
	if r.Header.Get("Acp-Connection-Id") == "" {
		http.Error(w, "Missing Acp-Connection-Id", http.StatusBadRequest)
		return
	}
	c := s.conn(r)
	if c == nil {
		http.Error(w, "Unknown Acp-Connection-Id", http.StatusNotFound)
		return
	}
	box := r.Header.Get("Acp-Session-Id")
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	if fl != nil {
		fl.Flush()
	}
	stop := context.AfterFunc(r.Context(), func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer stop()
	var out []byte
	for {
		msgs := c.takeAll(box, r.Context())
		if msgs == nil {
			return
		}
		out = out[:0]
		for _, msg := range msgs { // what queued meanwhile goes in one write
			out = append(append(append(out, "data: "...), msg...), '\n', '\n')
		}
		if _, err := w.Write(out); err != nil {
			return
		}
		if fl != nil {
			fl.Flush()
		}
	}
}

// takeAll waits for a box's messages and takes them all; nil once the
// connection closed (what the agent sent before it ended is delivered
// first) or ctx ended.
func (c *conn) takeAll(box string, ctx context.Context) [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		if ctx.Err() != nil {
			return nil
		}
		if q := c.boxes[box]; q != nil && len(*q) > 0 && !c.dropped {
			msgs := *q
			*q = nil
			return msgs
		}
		if c.closed {
			return nil
		}
		c.cond.Wait()
	}
}

// serveWS upgrades to one socket: text frames each way, initialize first.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	id := newID()
	w.Header().Set("Acp-Connection-Id", id)
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	ws.SetReadLimit(32 << 20)
	ctx := context.Background()
	typ, first, err := ws.Read(ctx)
	if err != nil || typ != websocket.MessageText || !strings.Contains(string(first), `"initialize"`) {
		ws.Close(websocket.StatusProtocolError, "First message must be initialize")
		return
	}
	a, err := s.NewAgent()
	if err != nil {
		ws.Close(websocket.StatusInternalError, "Initialize failed")
		return
	}
	c := newConn(a)
	c.id = id
	c.ws = func(msg []byte) error {
		// No deadline: a test server; closing the socket ends a write.
		return ws.Write(ctx, websocket.MessageText, msg)
	}
	c.wsClose = func() { ws.CloseNow() }
	if err := c.write(first); err != nil {
		c.close()
		return
	}
	s.add(c)
	go c.route()
	for {
		typ, msg, err := ws.Read(ctx)
		if err != nil {
			s.remove(c)
			return
		}
		if typ == websocket.MessageText {
			if c.write(msg) != nil {
				s.remove(c)
				return
			}
		}
	}
}
