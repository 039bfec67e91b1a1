package testkit

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// RawMCP serves a hand-written streamable HTTP MCP endpoint on loopback,
// for what the SDK's server will not send (a looping schema, an answer
// over the limit): notifications are taken (202), the standalone GET
// stream is refused (405), and every request goes to answer, which writes
// the whole response. It returns the endpoint's URL, closed when the test
// ends.
func RawMCP(t *testing.T, answer func(w http.ResponseWriter, method string, id, params json.RawMessage)) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &m)
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		answer(w, m.Method, m.ID, m.Params)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// MCPResult writes a JSON response holding result, the answer to id.
func MCPResult(w http.ResponseWriter, id json.RawMessage, result string) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result)
}
