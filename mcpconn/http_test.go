package mcpconn

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// rawServer is a hand-written streamable HTTP MCP endpoint: it answers
// initialize (with reply, when set) and hands every other request to call.
func rawServer(t *testing.T, reply func(w http.ResponseWriter, id json.RawMessage), call func(w http.ResponseWriter, id json.RawMessage)) string {
	return testkit.RawMCP(t, func(w http.ResponseWriter, method string, id, _ json.RawMessage) {
		switch {
		case method == "initialize" && reply != nil:
			reply(w, id)
		case method == "initialize":
			testkit.MCPResult(w, id, initResult(""))
		default:
			call(w, id)
		}
	})
}

// initFields are the fields of an initialize result, with pad as its
// instructions.
func initFields(pad string) string {
	return `"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"},"instructions":"` + pad + `"`
}

func initResult(pad string) string { return "{" + initFields(pad) + "}" }

func connectTo(url string, h http.Header) (*Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	return Connect(ctx, Config{URL: url, Header: h, ProtocolVersion: "2025-11-25"})
}

// Issue 34, item 6: a redirect is not followed, to another host or
// anywhere: the error names where it pointed, and the other place never
// sees a request, let alone the --header credentials.
func TestHTTPFollowsNoRedirect(t *testing.T) {
	r := testkit.NewRedirect(t, "/mcp")
	_, err := connectTo(r.URL+"/mcp", http.Header{"Authorization": {"Bearer s3cret"}})
	if err == nil || !strings.Contains(err.Error(), "redirects (HTTP 307) to "+r.Target) || !strings.Contains(err.Error(), "follows no redirect") {
		t.Errorf("err %v, want the redirect named and refused", err)
	}
	if n, auth := r.Reached(); n != 0 {
		t.Errorf("the redirect was followed: %d requests reached the other place, with credentials %q", n, auth)
	}
}

// Issue 34, item 7: a JSON response body over the message limit ends
// the connection with a clear error, instead of being read whole.
func TestHTTPJSONBodyOverLimit(t *testing.T) {
	url := rawServer(t, func(w http.ResponseWriter, id json.RawMessage) {
		testkit.MCPResult(w, id, initResult(strings.Repeat("a", 11<<20)))
	}, nil)
	_, err := connectTo(url, nil)
	if err == nil || !strings.Contains(err.Error(), "over 10 MiB") {
		t.Errorf("err %v, want the message limit", err)
	}
}

// hugeEvent is one server-sent event over the message limit, a JSON-RPC
// answer to id spread over many data lines (each well under the limit):
// its result holds fields, and a long list besides.
func hugeEvent(id json.RawMessage, fields string) string {
	var b strings.Builder
	b.WriteString("event: message\n")
	line := `"` + strings.Repeat("a", 1000) + `",`
	fmt.Fprintf(&b, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"pad\":[\n", id)
	for range 11 << 10 {
		b.WriteString("data: " + line + "\n")
	}
	b.WriteString("data: \"\"]," + fields + "}}\n\n")
	return b.String()
}

// Issue 34, item 7: an event over the message limit, at initialize or on
// a call's stream later, ends the connection with a clear error.
func TestHTTPEventOverLimit(t *testing.T) {
	sse := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, body)
	}
	t.Run("initialize", func(t *testing.T) {
		url := rawServer(t, func(w http.ResponseWriter, id json.RawMessage) { sse(w, hugeEvent(id, initFields(""))) }, nil)
		_, err := connectTo(url, nil)
		if err == nil || !strings.Contains(err.Error(), "over 10 MiB") {
			t.Errorf("err %v, want the message limit", err)
		}
	})
	t.Run("call", func(t *testing.T) {
		url := rawServer(t, nil, func(w http.ResponseWriter, id json.RawMessage) {
			sse(w, hugeEvent(id, `"content":[]`))
		})
		c, err := connectTo(url, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		done := call(c, "any")
		ex, _ := next[Exited](t, c)
		if !strings.Contains(ex.Reason, "over 10 MiB") {
			t.Errorf("the connection ended with %q, want the message limit", ex.Reason)
		}
		if r := <-done; r.err == nil {
			t.Errorf("the call got %+v", r.res)
		}
	})
}
