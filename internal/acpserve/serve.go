// Package acpserve is a small server side of ACP's Streamable HTTP &
// WebSocket transport: each connection is bridged to an agent's stdio (a
// process, or any pipe pair). The tests of several packages use it as a
// real server on a real socket; the end-to-end scripts test against the
// official TypeScript SDK's server and real agents' own.
//
//	s := &acpserve.Server{NewAgent: func() (acpserve.Agent, error) { return acpserve.Command("my-agent") }}
//	ts := httptest.NewServer(s) // then elicit --url ts.URL
package acpserve

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync"
)

// Agent is one connection's agent: its stdin and stdout.
type Agent struct {
	In    io.WriteCloser
	Out   io.Reader
	Close func() // ends the agent; nil when closing In is enough
}

// Command starts argv as a connection's agent.
func Command(argv []string, env []string) (Agent, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	in, err := cmd.StdinPipe()
	if err != nil {
		return Agent{}, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return Agent{}, err
	}
	if err := cmd.Start(); err != nil {
		return Agent{}, err
	}
	return Agent{In: in, Out: out, Close: func() {
		in.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}}, nil
}

// Server serves the transport on every path it is mounted at.
type Server struct {
	// NewAgent starts the agent of a new connection.
	NewAgent func() (Agent, error)
	// Token, when set, must come as "Authorization: Bearer TOKEN".
	Token string
	// NoWebSocket answers upgrades 426, as a server without WebSocket does.
	NoWebSocket bool

	mu    sync.Mutex
	conns map[string]*conn
	// Requests counts every request the server was sent, by method
	// (POST, GET, DELETE, UPGRADE), for tests.
	Requests map[string]int
}

func (s *Server) count(what string) {
	s.mu.Lock()
	if s.Requests == nil {
		s.Requests = map[string]int{}
	}
	s.Requests[what]++
	s.mu.Unlock()
}

// Count is how many requests of a kind the server was sent.
func (s *Server) Count(what string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Requests[what]
}

// ServeHTTP routes one request as the RFD says.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	upgrade := strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
	if upgrade {
		s.count("UPGRADE")
	} else {
		s.count(r.Method)
	}
	if s.Token != "" && r.Header.Get("Authorization") != "Bearer "+s.Token {
		http.Error(w, "invalid bearer token", http.StatusUnauthorized)
		return
	}
	switch {
	case r.Method == http.MethodGet && upgrade:
		if s.NoWebSocket {
			http.Error(w, "WebSocket upgrade is not implemented", http.StatusUpgradeRequired)
			return
		}
		s.serveWS(w, r)
	case r.Method == http.MethodGet:
		s.serveSSE(w, r)
	case r.Method == http.MethodPost:
		s.servePost(w, r)
	case r.Method == http.MethodDelete:
		c := s.conn(r)
		if c == nil {
			http.Error(w, "Unknown Acp-Connection-Id", http.StatusNotFound)
			return
		}
		s.remove(c)
		w.WriteHeader(http.StatusAccepted)
	default:
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	}
}

// Drop ends every connection abruptly, as a network failure or a server
// restart would: streams and sockets close, the agents end.
func (s *Server) Drop() {
	s.mu.Lock()
	conns := s.conns
	s.conns = nil
	s.mu.Unlock()
	for _, c := range conns {
		c.mu.Lock()
		c.dropped = true
		c.mu.Unlock()
		c.close()
	}
}

// Connections is how many connections are open.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

func (s *Server) conn(r *http.Request) *conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns[r.Header.Get("Acp-Connection-Id")]
}

func (s *Server) add(c *conn) {
	s.mu.Lock()
	if s.conns == nil {
		s.conns = map[string]*conn{}
	}
	s.conns[c.id] = c
	s.mu.Unlock()
}

func (s *Server) remove(c *conn) {
	s.mu.Lock()
	delete(s.conns, c.id)
	s.mu.Unlock()
	c.close()
}

// conn is one connection: its agent and where its messages go.
type conn struct {
	id    string
	agent Agent
	out   *bufio.Reader

	mu       sync.Mutex
	cond     *sync.Cond
	closed   bool
	dropped  bool                 // closed by Drop: nothing more is delivered
	boxes    map[string]*[][]byte // by session id; "" is the connection's
	routes   map[string]string    // id of a client request -> the session its answer goes to
	requests map[string]string    // id of an agent request -> its session
	ws       func([]byte) error   // a WebSocket connection's sender
	wsClose  func()
}

func newConn(a Agent) *conn {
	c := &conn{id: newID(), agent: a, out: bufio.NewReaderSize(a.Out, 1<<20), boxes: map[string]*[][]byte{},
		routes: map[string]string{}, requests: map[string]string{}}
	c.cond = sync.NewCond(&c.mu)
	return c
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// readLine is the agent's next message.
func (c *conn) readLine() ([]byte, error) {
	line, err := c.out.ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return nil, err
	}
	return line, nil
}

// route reads the agent's messages and puts each where it belongs, until
// the agent ends; then the connection closes.
func (c *conn) route() {
	defer c.close()
	for {
		line, err := c.readLine()
		if err != nil {
			return
		}
		msg := strings.TrimSpace(string(line))
		if msg == "" {
			continue
		}
		c.mu.Lock()
		send := c.ws
		c.mu.Unlock()
		if send != nil { // one socket carries everything: no routing
			if send([]byte(msg)) != nil {
				return
			}
			continue
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				SessionID string `json:"sessionId"`
			} `json:"params"`
		}
		_ = json.Unmarshal([]byte(msg), &m)
		c.mu.Lock()
		box := ""
		switch {
		case m.Method == "" && m.ID != nil:
			box = c.routes[string(m.ID)]
			delete(c.routes, string(m.ID))
		default:
			box = m.Params.SessionID
			if m.ID != nil && box != "" {
				c.requests[string(m.ID)] = box
			}
		}
		c.push(box, []byte(msg))
		c.mu.Unlock()
	}
}

// push queues a message on a box (c.mu held).
func (c *conn) push(box string, msg []byte) {
	q := c.boxes[box]
	if q == nil {
		q = &[][]byte{}
		c.boxes[box] = q
	}
	*q = append(*q, msg)
	c.cond.Broadcast()
}

func (c *conn) close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	wsClose := c.wsClose
	c.cond.Broadcast()
	c.mu.Unlock()
	if wsClose != nil {
		wsClose()
	}
	if c.agent.Close != nil {
		c.agent.Close()
	} else {
		c.agent.In.Close()
	}
}

// write hands a client message to the agent.
func (c *conn) write(msg []byte) error {
	_, err := c.agent.In.Write(append(append([]byte(nil), msg...), '\n'))
	return err
}
