package acpconn

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
)

func init() {
	// stray-escapes prints lines that are not JSON-RPC, with escapes a
	// terminal obeys, and a JSON line holding a raw C1 CSI.
	scripts["stray-escapes"] = func(a *scripted) {
		p := a.prompt()
		a.raw("login at \x1b]0;PWNED-TITLE\x07\x1b]52;c;Y3VybCBldmls\x07https://evil.example")
		a.raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"c1 ` + "\u009b" + `2J"}}}}`)
		a.endTurn(p, "end_turn")
	}
}

// Issue 27, case 12: the --log trace quotes the agent's lines that are
// not JSON-RPC (and JSON lines holding what a terminal obeys), so tail -f
// of the trace sets no title and writes no clipboard.
func TestTraceQuotesStrayLines(t *testing.T) {
	var log testkit.Buffer
	c := start(t, "stray-escapes", Config{Log: &log})
	c.StartPrompt("go")
	until[TurnEnded](t, c)
	c.Close()
	trace := log.String()
	if strings.ContainsAny(trace, "\x1b\a") || strings.Contains(trace, "\u009b") {
		t.Fatalf("the trace holds raw escapes:\n%q", trace)
	}
	for _, want := range []string{`(not JSON-RPC) "login at \x1b]0;PWNED-TITLE\a\x1b]52;c;Y3VybCBldmls\ahttps://evil.example"`, `(escaped) "{\"jsonrpc`, `\u009b2J`, `"method":"session/prompt"`} {
		if !strings.Contains(trace, want) {
			t.Errorf("the trace lacks %s:\n%s", want, trace)
		}
	}
}

// noConnID is a server's response writer that sends no Acp-Connection-Id
// header (qwen serve's WebSocket upgrade carries none).
type noConnID struct{ http.ResponseWriter }

func (w noConnID) WriteHeader(code int) {
	w.Header().Del("Acp-Connection-Id")
	w.ResponseWriter.WriteHeader(code)
}

func (w noConnID) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// A WebSocket server that names no connection: the trace says which
// transport is in use, and no empty "(connection )" (issue 35, item 11);
// it is elicit's own note, not a line of the agent's "not JSON-RPC".
func TestTraceWebSocketWithoutConnectionID(t *testing.T) {
	s, _ := serveRemote(t, "demo")
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.ServeHTTP(noConnID{w}, r) }))
	t.Cleanup(ts.Close)
	trace := &testkit.Buffer{}
	c := startRemoteConn(t, Remote{URL: ts.URL + "/acp", Transport: TransportWS}, Config{Log: trace})
	c.Close()
	got := trace.String()
	if !strings.Contains(got, "-- connected to http://") || !strings.Contains(got, "over WebSocket\n") || strings.Contains(got, "(connection )") {
		t.Errorf("trace:\n%s", got)
	}
}
