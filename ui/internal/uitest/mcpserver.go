package uitest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/mcpconn"
)

// MCPServerEnv makes the test binary an MCP server over stdio (a go-sdk
// server), for the tests of `elicit mcp`'s front ends.
const MCPServerEnv = "ELICIT_UI_TEST_MCP"

// MCPForm is the form the test server's "signup" tool asks, with every
// kind the front ends fill, out of alphabetical order.
const MCPForm = `{"type":"object","properties":{
 "name":{"type":"string","title":"Name","minLength":1},
 "age":{"type":"integer","title":"Age","minimum":0,"maximum":150,"default":30},
 "ratio":{"type":"number","title":"Ratio"},
 "agree":{"type":"boolean","title":"Agree","default":false},
 "color":{"type":"string","title":"Color","enum":["red","green","blue"],"default":"green"},
 "tags":{"type":"array","title":"Tags","items":{"type":"string","enum":["a","b","c"]},"maxItems":2}
},"required":["name"]}`

// MCPConfig runs the test binary as the MCP test server.
func MCPConfig(t *testing.T) mcpconn.Config {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return mcpconn.Config{Argv: []string{self, "-test.run=^$"}, Env: append(os.Environ(), MCPServerEnv+"=1"), Dir: t.TempDir(), ProtocolVersion: "2025-11-25"}
}

func runMCPServer() {
	if err := mcpServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "mcp test server:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func mcpText(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// retried remembers the calls that were refused with -32042 once.
var retried sync.Map

func mcpServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "uitest", Title: "UI Test Server", Version: "0.1"}, nil)
	obj := json.RawMessage(`{"type":"object"}`)
	add := func(name, title string, schema json.RawMessage, h mcp.ToolHandler) {
		s.AddTool(&mcp.Tool{Name: name, Title: title, Description: "The " + name + " tool.", InputSchema: schema}, h)
	}
	add("echo", "Echo", json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","title":"Text"},"times":{"type":"integer","minimum":1,"default":1}},"required":["text"]}`),
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct {
				Text  string `json:"text"`
				Times int    `json:"times"`
			}
			json.Unmarshal(req.Params.Arguments, &a)
			out := ""
			for range max(a.Times, 1) {
				out += a.Text
			}
			return mcpText(out), nil
		})
	add("nested-args", "Nested arguments", json.RawMessage(`{"type":"object","properties":{"point":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]}},"required":["point"]}`),
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcpText("got " + string(req.Params.Arguments)), nil
		})
	add("signup", "Sign up", obj, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Tell us about you", RequestedSchema: json.RawMessage(MCPForm)})
		if err != nil {
			return nil, err
		}
		b, _ := json.Marshal(res)
		return mcpText("got " + string(b)), nil
	})
	add("open", "Open a page", json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}}}`), func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var a struct {
			URL string `json:"url"`
		}
		json.Unmarshal(req.Params.Arguments, &a)
		if a.URL == "" {
			a.URL = "https://example.com/connect"
		}
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: "Connect your account", URL: a.URL, ElicitationID: "open-1"})
		if err != nil {
			return nil, err
		}
		if res.Action == "accept" {
			_ = req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: "open-1"})
		}
		return mcpText("url " + res.Action), nil
	})
	add("needs-url", "Needs a URL first", obj, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if _, again := retried.LoadOrStore("needs-url", true); again {
			return mcpText("done after the prerequisite"), nil
		}
		return nil, mcp.URLElicitationRequiredError([]*mcp.ElicitParams{{Mode: "url", Message: "Authorize first", URL: "https://example.com/authorize", ElicitationID: "pre-1"}})
	})
	add("slow", "Slow", obj, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		tok := req.Params.GetProgressToken()
		for i := 1; i <= 1000; i++ {
			if tok != nil {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 1000, Message: fmt.Sprintf("step %d", i)})
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		}
		return mcpText("slow done"), nil
	})
	add("exit", "Exit", obj, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "uitest server: exiting on request")
		os.Exit(3)
		return nil, nil
	})
	add("fail", "Fail", obj, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r := mcpText("it broke")
		r.IsError = true
		return r, nil
	})
	add("rich", "Rich result", obj, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "some text"},
			&mcp.ImageContent{MIMEType: "image/png", Data: []byte("\x89PNG....")},
			&mcp.ResourceLink{URI: "file:///tmp/report.txt", Name: "report", Title: "The report"},
		}, StructuredContent: map[string]any{"count": 3}}, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "greet", Title: "Greeting", Description: "Say hello"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	})
	s.AddResource(&mcp.Resource{URI: "file:///readme", Name: "readme", Title: "Read me"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	})
	return s
}
