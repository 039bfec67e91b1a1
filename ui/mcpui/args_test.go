package mcpui

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// loopSchema is a tool's inputSchema whose $ref loops on one value.
const loopSchema = `{"type":"object","properties":{"x":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`

// toolServer is a hand-written MCP server on loopback (the SDK's own
// server would validate the arguments against the looping schema itself):
// one tool, "loop", whose call answers with the arguments it got.
func toolServer(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &m)
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		var result string
		switch m.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"loops","version":"1"}}`
		case "tools/list":
			result = `{"tools":[{"name":"loop","title":"Loop","inputSchema":` + loopSchema + `}]}`
		case "tools/call":
			text, _ := json.Marshal("got " + string(m.Params.Arguments))
			result = `{"content":[{"type":"text","text":` + string(text) + `}]}`
		default:
			result = `{}`
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// Issue 34, item 9: ctrl+s on the arguments of a tool whose schema's $ref
// loops ended elicit with a fatal stack overflow (the validator recursed
// for ever). The schema is checked first: the arguments go as JSON,
// checked as JSON only, and the user is told why.
func TestToolSchemaWithRefLoop(t *testing.T) {
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	o := Options{Server: mcpconn.Config{URL: toolServer(t), ProtocolVersion: "2025-11-25"}, Now: clk.now, Opener: &uitest.Recorder{}, NoColor: true, Theme: "dark"}
	d := &driver{t: t, m: New(o), clk: clk, msgs: make(chan tea.Msg, 4096)}
	d.feed(tea.WindowSizeMsg{Width: 100, Height: 40})
	d.run(d.m.Init())
	t.Cleanup(d.m.Close)
	d.waitText("[Tools (1)]")
	d.key("enter")
	d.waitText("Arguments for Loop (JSON)")
	d.waitText("loops")
	d.m.editor.ta.SetValue(`{"x":1}`)
	d.key("ctrl+s")
	d.waitText(`got {"x":1}`)
}
