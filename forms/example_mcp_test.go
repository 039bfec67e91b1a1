package forms_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/question/schema"
)

// Any Go MCP client can answer a server's forms with this package: hand
// the request's schema to schema.ParseSchema and the form to forms.Run (on
// a terminal), or to forms.Fill (without one, as here). The SDK answers
// -32602 for a schema ParseSchema refuses. Two things to know: the SDK
// gives the schema as a Go map, so its properties come in sorted order
// (package mcpconn keeps the server's order), and forms type numbers as
// exact json.Number values, which the SDK's own check of the content
// reads as strings: convert them to int64 or float64 first (mcpconn does).
func Example_mcpElicitationHandler() {
	handler := func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		raw, err := json.Marshal(req.Params.RequestedSchema)
		if err != nil {
			return nil, err
		}
		s, err := schema.ParseSchema(raw)
		if err != nil {
			return nil, err
		}
		// On a terminal: out, err := forms.Run(ctx, s, forms.Header{Agent: "the server", Message: req.Params.Message}, forms.RunOptions{})
		out, err := forms.Fill(s, map[string]json.RawMessage{"name": []byte(`"Ada"`)})
		if err != nil { // nobody said no: cancel, never a made-up decline
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}
		return &mcp.ElicitResult{Action: string(out.Action), Content: out.Content}, nil
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "example"}, &mcp.ClientOptions{ElicitationHandler: handler})

	// A server whose tool asks for a name, over an in-memory transport.
	server := mcp.NewServer(&mcp.Implementation{Name: "server"}, nil)
	server.AddTool(&mcp.Tool{Name: "greet", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Who are you?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"subscribe":{"type":"boolean","default":false}},"required":["name"]}`)})
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(res.Action, " ", res.Content)}}}, nil
	})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, _ := server.Connect(ctx, st, nil)
	defer ss.Close()
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output: accept map[name:Ada subscribe:false]
}
