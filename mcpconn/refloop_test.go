package mcpconn

import (
	"context"
	"encoding/json"
	"github.com/elicit-dev/elicit/question"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Issue 34, item 9, for elicitations: a form whose option refers to a
// $ref loop reads as a plain select, but the SDK validates the answer
// against the whole schema and recursed for ever (a fatal stack
// overflow). The form is refused with -32602 before anyone is asked, and
// the user is told.
func TestElicitationWithRefLoopRefused(t *testing.T) {
	const loop = `{"type":"object","$defs":{"L":{"$ref":"#/$defs/L"}},"properties":{"p":{"type":"string","oneOf":[{"const":"a","title":"A","$ref":"#/$defs/L"}]}}}`
	s := mcp.NewServer(&mcp.Implementation{Name: "loops", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Pick", RequestedSchema: json.RawMessage(loop)})
		return text("elicit: " + resultText(nil, err)), nil
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer srv.Close()
	c, err := connectTo(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	done := call(c, "ask")
	var notice Notice
	for {
		ev, _ := next[Event](t, c)
		if a, ok := ev.(question.Asked); ok {
			c.Answer(a.Q, question.Outcome{Action: question.Accept, Content: map[string]any{"p": "a"}})
			t.Fatal("the form was asked")
		}
		if n, ok := ev.(Notice); ok {
			notice = n
			break
		}
	}
	if !strings.Contains(notice.Text, "loops") {
		t.Errorf("notice %q", notice.Text)
	}
	if got := textOf(t, <-done); !strings.Contains(got, "-32602") && !strings.Contains(got, "loops") {
		t.Errorf("the server got %s", got)
	}
}
