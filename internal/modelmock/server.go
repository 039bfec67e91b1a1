// Package modelmock is a loopback mock of the model APIs that real ACP
// agents call: Anthropic Messages, OpenAI Chat Completions, OpenAI
// Responses and Gemini generateContent. It lets agents installed from npm run real turns without an
// API key, and records what they sent so tests can assert on it.
//
// The reply is chosen by a keyword in the last user message of the request
// (see [Server] for the rules); a request whose last message is a tool
// result always gets the plain text "done: <summary>" and ends the turn, so
// every turn finishes.
//
// Pointing real agents at it (URL is [Server.URL]; any key works):
//
//	claude-agent-acp  ANTHROPIC_BASE_URL=URL ANTHROPIC_API_KEY=x
//	qwen --acp        OPENAI_BASE_URL=URL/v1 OPENAI_API_KEY=x OPENAI_MODEL=mock-model
//	gemini --experimental-acp  GOOGLE_GEMINI_BASE_URL=URL GEMINI_API_KEY=x
//	codex-acp         CODEX_HOME with a model_provider whose base_url is URL/v1
//	                  and wire_api = "responses"
//	opencode acp      OPENCODE_CONFIG_CONTENT with an @ai-sdk/openai-compatible
//	                  provider whose baseURL is URL/v1
//
// scripts/e2e-real-agents.sh runs all of these.
package modelmock

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options configures a [Server]. The zero value is ready to use.
type Options struct {
	// Log, when set, receives one line per request: method, path, the
	// reply chosen, and the last user message.
	Log io.Writer
	// DumpDir, when set, receives every request body as NNNN-<api>.json,
	// for looking at what an agent really sends.
	DumpDir string
	// Models lists the model ids GET /v1/models returns; empty means
	// [DefaultModels].
	Models []string
}

// DefaultModels are the model ids GET /v1/models lists by default.
var DefaultModels = []string{"mock-model", "claude-sonnet-4-5", "claude-haiku-4-5", "gpt-5"}

// Request is one request the server received, as recorded by
// [Server.Requests].
type Request struct {
	// Method and Path are the HTTP method and URL path.
	Method, Path string
	// API is "anthropic", "chat", "responses", "gemini", "models", "count_tokens",
	// "hello" (Claude Code's connectivity check) or "unknown".
	API string
	// Model is the model the request named, if any.
	Model string
	// Stream reports whether the client asked for a streamed reply.
	Stream bool
	// LastUserText is the text of the last user message, without the
	// reminders and context blocks agents wrap around it.
	LastUserText string
	// ToolResult reports whether the request ended with a tool result.
	ToolResult bool
	// Tools are the names of the tools the request offered.
	Tools []string
	// Reply is what the server answered: "text", "done", "tool:<name>",
	// "json" or "error".
	Reply string
}

// Server is the mock. It is an [http.Handler]; [Server.Listen] (or
// [Start]) serves it on a loopback address.
//
// The reply to a model call depends on the last user message, matched
// case-insensitively against words that begin with a keyword:
//
//   - "ask": the agent's question tool (Claude's AskUserQuestion with one
//     single-select question "Which colour?", Red or Blue);
//   - "write": the agent's file-write tool, writing hello.txt in the
//     working directory named in the prompt;
//   - "bash": the agent's shell tool running "echo hi";
//   - "plan": the agent's todo or plan tool with two items;
//   - "elicitation": an MCP server's form tool the agent offers
//     (server-everything's trigger-elicitation-request);
//   - anything else, a keyword whose tool the request does not offer, or
//     a user message longer than [MaxKeywordText]:
//     the streamed text "Hello from the mock model.".
//
// Tools are picked from the tools array of the request, so the mock adapts
// to each agent's tool names and schemas.
type Server struct {
	opts  Options
	mu    sync.Mutex
	reqs  []Request
	seq   atomic.Int64
	ids   atomic.Int64
	ln    net.Listener
	srv   *http.Server
	url   string
	close sync.Once
}

// New returns a server that is not listening yet: use it as an
// [http.Handler] (for example with httptest) or call [Server.Listen].
func New(opts Options) *Server {
	if len(opts.Models) == 0 {
		opts.Models = DefaultModels
	}
	return &Server{opts: opts}
}

// Start is New(Options{}) followed by Listen(addr).
func Start(addr string) (*Server, error) {
	s := New(Options{})
	if err := s.Listen(addr); err != nil {
		return nil, err
	}
	return s, nil
}

// Listen serves on addr, which must be a loopback address such as
// "127.0.0.1:0" (the empty string means that); it returns once the
// listener is open.
func (s *Server) Listen(addr string) error {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("modelmock: %q is not a loopback address", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	s.ln = ln
	s.url = "http://" + ln.Addr().String()
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln) //nolint:errcheck // ErrServerClosed on Close
	return nil
}

// URL is the base URL, such as http://127.0.0.1:40123, without a trailing
// slash or /v1; it is empty until [Server.Listen].
func (s *Server) URL() string { return s.url }

// Close stops serving; it is safe to call more than once.
func (s *Server) Close() error {
	var err error
	s.close.Do(func() {
		if s.srv != nil {
			err = s.srv.Close()
		}
	})
	return err
}

// Requests returns a copy of every request received so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// ServeHTTP routes a request to the API it belongs to. Any API key or
// authorization header is accepted.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	path := strings.TrimSuffix(r.URL.Path, "/")
	rec := Request{Method: r.Method, Path: r.URL.Path}
	switch {
	case r.Method == http.MethodPost && path == "/v1/messages":
		rec.API = "anthropic"
		s.anthropicMessages(w, body, &rec)
	case r.Method == http.MethodPost && path == "/v1/messages/count_tokens":
		rec.API, rec.Reply = "count_tokens", "json"
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": 1 + len(body)/4})
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/chat/completions"):
		rec.API = "chat"
		s.chatCompletions(w, body, &rec)
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/responses"):
		rec.API = "responses"
		s.responses(w, body, &rec)
	case r.Method == http.MethodPost && strings.Contains(path, "/models/") &&
		(strings.HasSuffix(path, ":generateContent") || strings.HasSuffix(path, ":streamGenerateContent")):
		rec.API = "gemini"
		s.gemini(w, r, body, &rec)
	case r.Method == http.MethodGet && (path == "/v1/models" || path == "/models"):
		rec.API, rec.Reply = "models", "json"
		s.listModels(w)
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/models/"):
		rec.API, rec.Reply = "models", "json"
		writeJSON(w, http.StatusOK, s.model(strings.TrimPrefix(path, "/v1/models/")))
	case path == "/api/hello":
		// Claude Code's connectivity check (HEAD).
		rec.API, rec.Reply = "hello", "json"
		writeJSON(w, http.StatusOK, map[string]any{"message": "hello"})
	default:
		rec.API, rec.Reply = "unknown", "error"
		writeJSON(w, http.StatusNotFound, map[string]any{
			"type": "error",
			"error": map[string]any{
				"type":    "not_found_error",
				"message": "modelmock: no such endpoint: " + r.Method + " " + r.URL.Path,
			},
		})
	}
	s.record(rec, body)
}

// record appends rec to the log and writes the log line and body dump.
func (s *Server) record(rec Request, body []byte) {
	n := s.seq.Add(1)
	s.mu.Lock()
	s.reqs = append(s.reqs, rec)
	s.mu.Unlock()
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "%04d %s %s api=%s model=%s stream=%v tools=%d reply=%s last=%q\n",
			n, rec.Method, rec.Path, rec.API, rec.Model, rec.Stream, len(rec.Tools), rec.Reply, clip(rec.LastUserText, 80))
	}
	if s.opts.DumpDir != "" && len(body) > 0 {
		name := filepath.Join(s.opts.DumpDir, fmt.Sprintf("%04d-%s.json", n, rec.API))
		_ = os.WriteFile(name, body, 0o644)
	}
}

// listModels answers GET /v1/models in a shape both the OpenAI and the
// Anthropic SDKs accept.
func (s *Server) listModels(w http.ResponseWriter) {
	data := make([]map[string]any, 0, len(s.opts.Models))
	for _, id := range s.opts.Models {
		data = append(data, s.model(id))
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"object":   "list",
		"data":     data,
		"has_more": false,
		"first_id": s.opts.Models[0],
		"last_id":  s.opts.Models[len(s.opts.Models)-1],
	})
}

// model is one entry of the model list, with both APIs' fields.
func (s *Server) model(id string) map[string]any {
	return map[string]any{
		"id": id, "object": "model", "created": 1700000000, "owned_by": "modelmock",
		"type": "model", "display_name": id, "created_at": "2025-01-01T00:00:00Z",
	}
}

// writeJSON writes v as a JSON response.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// badRequest answers a body the mock cannot parse.
func badRequest(w http.ResponseWriter, rec *Request, err error) {
	rec.Reply = "error"
	writeJSON(w, http.StatusBadRequest, map[string]any{
		"type":  "error",
		"error": map[string]any{"type": "invalid_request_error", "message": "modelmock: " + err.Error()},
	})
}

// sse writes server-sent events and flushes after each.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

// newSSE starts an event stream.
func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return &sse{w: w, f: f}
}

// event writes one event; an empty name writes a bare data line.
func (e *sse) event(name string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		b = []byte(`{}`)
	}
	e.raw(name, string(b))
}

// raw writes one event whose data is already encoded.
func (e *sse) raw(name, data string) {
	if name != "" {
		fmt.Fprintf(e.w, "event: %s\n", name)
	}
	fmt.Fprintf(e.w, "data: %s\n\n", data)
	if e.f != nil {
		e.f.Flush()
	}
}

// errNoMessages is the error for a request without messages.
var errNoMessages = errors.New("no messages")

// clip shortens s to n runes with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// newID returns a unique id with the given prefix.
func (s *Server) newID(prefix string) string {
	return fmt.Sprintf("%s%05d%04d", prefix, time.Now().Unix()%100000, s.ids.Add(1))
}
