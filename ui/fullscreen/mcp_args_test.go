package fullscreen

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/mcpconn"
)

// loopSchema is a tool's inputSchema whose $ref loops on one value.
const loopSchema = `{"type":"object","properties":{"x":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`

// toolServer is a hand-written MCP server on loopback (the SDK's own
// server would validate the arguments against the looping schema itself):
// one tool, "loop", whose call answers with the arguments it got.
func toolServer(t *testing.T) string {
	return testkit.RawMCP(t, func(w http.ResponseWriter, method string, id, params json.RawMessage) {
		switch method {
		case "initialize":
			testkit.MCPResult(w, id, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"loops","version":"1"}}`)
		case "tools/list":
			testkit.MCPResult(w, id, `{"tools":[{"name":"loop","title":"Loop","inputSchema":`+loopSchema+`}]}`)
		case "tools/call":
			var p struct {
				Arguments json.RawMessage `json:"arguments"`
			}
			_ = json.Unmarshal(params, &p)
			text, _ := json.Marshal("got " + string(p.Arguments))
			testkit.MCPResult(w, id, `{"content":[{"type":"text","text":`+string(text)+`}]}`)
		default:
			testkit.MCPResult(w, id, `{}`)
		}
	})
}

// Issue 34, item 9: ctrl+s on the arguments of a tool whose schema's $ref
// loops ended elicit with a fatal stack overflow (the validator recursed
// for ever). The schema is checked first: the arguments go as JSON,
// checked as JSON only, and the user is told why.
func TestToolSchemaWithRefLoop(t *testing.T) {
	d := mcpDriver(t, mcpconn.Config{URL: toolServer(t), ProtocolVersion: "2025-11-25"}, Options{})
	d.waitText("[Tools (1)]")
	d.key("enter")
	d.waitText("Arguments for Loop (JSON)")
	d.waitText("loops")
	d.m.mcp().editor.ta.SetValue(`{"x":1}`)
	d.key("ctrl+s")
	d.waitText(`got {"x":1}`)
}
