package hostile

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPTool is the hostile MCP server's tool that asks every kind of
// question; MCPFailTool fails with a hostile error.
const (
	MCPTool     = "ask"
	MCPFailTool = "fail"
)

// MCPServer is the hostile MCP server: every string it sends carries every
// attack (Payload): its name and instructions, the tools', prompts' and
// resources' titles and descriptions, log and progress messages, the
// elicitation messages, the form's titles, descriptions and option labels,
// the URL of a URL elicitation, tool results and tool errors. The
// black-box tests run `elicit mcp` against it in every front end.
func MCPServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "hostile", Title: Payload("server title"), Version: "0.1"},
		&mcp.ServerOptions{Instructions: Payload("instructions")})
	args := mustJSON(map[string]any{"type": "object", "properties": map[string]any{
		"note": map[string]any{"type": "string", "title": Payload("argument title"), "description": Payload("argument description")},
	}})
	s.AddTool(&mcp.Tool{Name: MCPTool, Title: Payload("tool title"), Description: Payload("tool description"), InputSchema: args}, ask)
	s.AddTool(&mcp.Tool{Name: MCPFailTool, Title: Payload("fail title"), Description: Payload("fail description"), InputSchema: args},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: Payload("tool error")}}}, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "hostile-prompt", Title: Payload("prompt title"), Description: Payload("prompt description")},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Description: Payload("prompt result")}, nil
		})
	s.AddResource(&mcp.Resource{URI: "file:///hostile", Name: "hostile-resource", Title: Payload("resource title"), Description: Payload("resource description")},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "file:///hostile", Text: Payload("resource text")}}}, nil
		})
	return s
}

// RunMCP serves MCPServer on stdin and stdout.
func RunMCP(ctx context.Context) error { return MCPServer().Run(ctx, &mcp.StdioTransport{}) }

// MCPForm is the hostile form ask sends: hostile titles, descriptions,
// defaults and option labels on plain keys (a key must stay usable).
var MCPForm = mustJSON(map[string]any{
	"type": "object", "title": Payload("form title"), "description": Payload("form description"),
	"properties": map[string]any{
		"s": map[string]any{"type": "string", "title": Payload("string title"), "description": Payload("string description"), "default": Short("default")},
		"e": map[string]any{"type": "string", "title": Payload("enum title"), "oneOf": []any{
			map[string]any{"const": "a", "title": Payload("option a")}, map[string]any{"const": "b", "title": Payload("option b")}}},
		"m": map[string]any{"type": "array", "title": Payload("multi title"), "items": map[string]any{"anyOf": []any{
			map[string]any{"const": "x", "title": Payload("option x")}}}},
	},
})

// ask logs, reports progress, asks a form and a URL, then answers with a
// hostile result. Under protocol 2025-11-25 it sends elicitation/create
// inside the call; under 2026-07-28, where that is not allowed, it returns
// both questions as input requests and answers the call made again with
// their responses.
func ask(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: Short("logger"), Data: Payload("log")})
	if tok := req.Params.GetProgressToken(); tok != nil {
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 2, Message: Payload("progress")})
	}
	formQ := &mcp.ElicitParams{Message: Payload("form message"), RequestedSchema: MCPForm}
	urlQ := &mcp.ElicitParams{Mode: "url", Message: Payload("url message"), ElicitationID: Short("id"),
		URL: "https://xn--80ak6aa92e.com/\u202egnp.exe?q=" + Short("query")}
	if len(req.Params.InputResponses) > 0 {
		form, _ := req.Params.InputResponses["form"].(*mcp.ElicitResult)
		url, _ := req.Params.InputResponses["url"].(*mcp.ElicitResult)
		return result(form, url), nil
	}
	form, err := req.Session.Elicit(ctx, formQ)
	if err != nil {
		// 2026-07-28: the questions go back as input requests.
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"form": formQ, "url": urlQ}}, nil
	}
	url, err := req.Session.Elicit(ctx, urlQ)
	if err != nil {
		return nil, err
	}
	return result(form, url), nil
}

// result is ask's hostile answer, with the actions it heard.
func result(form, url *mcp.ElicitResult) *mcp.CallToolResult {
	action := func(r *mcp.ElicitResult) string {
		if r == nil {
			return "none"
		}
		return r.Action
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "form:" + action(form) + " url:" + action(url) + " " + Payload("result")}},
		StructuredContent: map[string]any{"echo": Payload("structured")}}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
