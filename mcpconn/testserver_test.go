package mcpconn

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/elicit-dev/elicit/internal/testkit"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/internal/hostile"
)

// The test binary is the server the tests connect to, over real pipes:
// a go-sdk server with tools that exercise each path.
const serverEnv = "MCPCONN_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) != "" {
		if err := testServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "test server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	testkit.SkipRaceExitSleep() // the children this binary starts exit at once
	os.Exit(m.Run())
}

// orderedSchema lists its properties out of alphabetical order, so a form
// shown in the SDK's map order would be caught.
const orderedSchema = `{"type":"object","properties":{"zeta":{"type":"string","title":"Zeta"},"alpha":{"type":"integer","minimum":1},"mid":{"type":"array","items":{"type":"string","enum":["a","b"]}}},"required":["zeta"]}`

// nestedSchema has a nested object: the client SDK refuses it.
const nestedSchema = `{"type":"object","properties":{"addr":{"type":"object","properties":{"city":{"type":"string"}}}}}`

// changedSchema is orderedSchema changed between two calls: another
// order, a tighter minimum and another required field.
const changedSchema = `{"type":"object","properties":{"alpha":{"type":"integer","minimum":5},"zeta":{"type":"string","title":"Zeta"}},"required":["alpha"]}`

// sequence is what the tool "sequence" asks, one after the other: one
// form three times, the same message with a changed schema, the first
// again, and a hostile server's form twice.
var sequence = []struct {
	message string
	schema  json.RawMessage
}{
	{"Same", json.RawMessage(orderedSchema)}, {"Same", json.RawMessage(orderedSchema)}, {"Other", json.RawMessage(orderedSchema)},
	{"Same", json.RawMessage(changedSchema)}, {"Same", json.RawMessage(orderedSchema)},
	{hostile.Payload("form message"), hostile.MCPForm}, {hostile.Payload("form message"), hostile.MCPForm},
}

var withdraw struct {
	sync.Mutex
	cancel context.CancelFunc
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func resultText(res *mcp.ElicitResult, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	b, _ := json.Marshal(res)
	return string(b)
}

func testServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "testserver", Title: "Test Server", Version: "1.0"}, nil)
	empty := json.RawMessage(`{"type":"object"}`)
	add := func(name string, h mcp.ToolHandler) {
		s.AddTool(&mcp.Tool{Name: name, Title: "Tool " + name, InputSchema: empty}, h)
	}
	add("form", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(resultText(req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Fill this in", RequestedSchema: json.RawMessage(orderedSchema)}))), nil
	})
	add("mrtr-form", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if r, ok := req.Params.InputResponses["f1"]; ok {
			res, _ := r.(*mcp.ElicitResult)
			return text(resultText(res, nil)), nil
		}
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"f1": &mcp.ElicitParams{Message: "Round trip", RequestedSchema: json.RawMessage(orderedSchema)}}}, nil
	})
	add("sequence", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var actions []string
		for _, q := range sequence {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: q.message, RequestedSchema: q.schema})
			if err != nil {
				actions = append(actions, "error")
				continue
			}
			actions = append(actions, res.Action)
		}
		return text(strings.Join(actions, " ")), nil
	})
	add("nested", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(resultText(req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Where do you live?", RequestedSchema: json.RawMessage(nestedSchema)}))), nil
	})
	add("url", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: "Sign in", URL: "https://example.com/connect", ElicitationID: "e1"})
		if err == nil && res.Action == "accept" {
			_ = req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: "e1"})
		}
		return text(resultText(res, err)), nil
	})
	add("withdrawn", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx2, cancel := context.WithCancel(ctx)
		withdraw.Lock()
		withdraw.cancel = cancel
		withdraw.Unlock()
		return text(resultText(req.Session.Elicit(ctx2, &mcp.ElicitParams{Message: "Soon withdrawn", RequestedSchema: json.RawMessage(orderedSchema)}))), nil
	})
	add("withdraw", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		withdraw.Lock()
		defer withdraw.Unlock()
		if withdraw.cancel != nil {
			withdraw.cancel()
		}
		return text("withdrawn"), nil
	})
	add("slow", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		tok := req.Params.GetProgressToken()
		for i := 1; ; i++ {
			if tok != nil {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 100, Message: fmt.Sprintf("step %d", i)})
			}
			select {
			case <-ctx.Done():
				if f := os.Getenv("MCPCONN_CANCELLED"); f != "" {
					os.WriteFile(f, []byte("cancelled"), 0o600)
				}
				return nil, ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	add("needs-url", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, mcp.URLElicitationRequiredError([]*mcp.ElicitParams{
			{Mode: "url", Message: "Connect first", URL: "https://example.com/pre", ElicitationID: "pre1"},
			{Mode: "url", Message: "Bad one", URL: "javascript:alert(1)", ElicitationID: "pre2"},
		})
	})
	add("caps", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		b, _ := json.Marshal(req.Session.InitializeParams().Capabilities)
		return text(string(b)), nil
	})
	add("exit", func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "test server: exiting mid-form")
		os.Exit(3)
		return nil, nil
	})
	urlTools(add)
	return s
}
