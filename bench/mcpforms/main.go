// Command mcpforms is the MCP server of the benchmarks' `mcp` group: one
// tool, "forms", that asks N form elicitations in one call (one after the
// other, as a real server asks), over stdio, on the same Go SDK elicit
// uses. Each form has a string, an integer, a boolean and an enum; the
// tool checks every answer against the values bench/run.sh puts in the
// answers file and reports how many matched, and how long the forms took
// from the first question to the last answer (the client's start-up and
// exit left out):
//
//	mcpforms                        # serve on stdin/stdout
//	tools/call forms {"n": 1000}    # -> "accepted 1000 of 1000, 1000 as expected; forms took 512.3 ms"
//
// The forms are asked while the call runs (elicitation/create inside
// tools/call), which protocol 2025-11-25 allows and 2026-07-28 replaces
// by input requests returned to the client (SEP-2322, at most a few
// rounds): both clients ask for 2025-11-25 (elicit mcp call --protocol).
// The exit status is 0 once the client closes the connection.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Answers are the values the benchmark's answers file holds: what a
// form's content must be for the tool to count it as answered.
var Answers = map[string]any{"name": "bench", "count": float64(3), "ok": true, "color": "green"}

// schema is each form's requested schema (plain JSON, as a server sends).
var schema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"name":  map[string]any{"type": "string", "title": "Name", "description": "Who is asking"},
		"count": map[string]any{"type": "integer", "title": "Count", "minimum": 0, "maximum": 100},
		"ok":    map[string]any{"type": "boolean", "title": "Proceed?"},
		"color": map[string]any{"type": "string", "title": "Colour", "enum": []any{"red", "green", "blue"}},
	},
	"required": []any{"name", "count", "ok", "color"},
}

type formsArgs struct {
	N int `json:"n" jsonschema:"how many forms to ask, one after the other"`
}

func main() {
	log.SetFlags(0)
	server := mcp.NewServer(&mcp.Implementation{Name: "bench-mcpforms", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "forms", Description: "Asks n forms in one call and says how many were answered as expected."},
		func(ctx context.Context, req *mcp.CallToolRequest, in formsArgs) (*mcp.CallToolResult, any, error) {
			start := time.Now()
			accepted, matched := ask(ctx, req.Session, in.N)
			text := fmt.Sprintf("accepted %d of %d, %d as expected; forms took %.1f ms", accepted, in.N, matched, time.Since(start).Seconds()*1000)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil && err != context.Canceled {
		fmt.Fprintln(os.Stderr, "mcpforms:", err)
	}
}

// ask asks n forms in turn and counts the accepted ones, and those whose
// content is exactly Answers.
func ask(ctx context.Context, ss *mcp.ServerSession, n int) (accepted, matched int) {
	for i := 1; i <= n; i++ {
		res, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: fmt.Sprintf("Form %d of %d", i, n), RequestedSchema: schema})
		if err != nil {
			log.Printf("form %d: %v", i, err)
			return accepted, matched
		}
		if res.Action != "accept" {
			continue
		}
		accepted++
		if same(res.Content, Answers) {
			matched++
		}
	}
	return accepted, matched
}

func same(got, want map[string]any) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}
