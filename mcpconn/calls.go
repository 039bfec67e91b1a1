package mcpconn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// Tool is a tool the server offers. Name is exact (it goes back to the
// server); Title and Description are sanitized. InputSchema is the
// server's JSON, in its property order.
type Tool struct {
	Name, Title, Description string
	InputSchema              json.RawMessage
	ReadOnly, Destructive    bool
}

// Display is the tool's title, else its name made safe.
func (t Tool) Display() string {
	if t.Title != "" {
		return t.Title
	}
	return sanitize.Line(t.Name)
}

// Item is a prompt or a resource the server offers: shown, not used.
type Item struct {
	Name, Title, Description string
	URI                      string // a resource's
}

// MaxTools is the most tools Tools returns: a list to look at, not one a
// server can make elicit hold without end.
const MaxTools = 10000

// Tools lists every tool (all pages, up to MaxTools).
func (c *Conn) Tools(ctx context.Context) ([]Tool, error) {
	var out []Tool
	defer func() { c.setTitles(out) }()
	for t, err := range c.cs.Tools(ctx, nil) {
		if err != nil {
			return out, err
		}
		raw := c.obs.toolSchema(t.Name)
		if raw == nil {
			raw, _ = json.Marshal(t.InputSchema)
		}
		tool := Tool{Name: t.Name, Title: sanitize.Line(t.Title), Description: sanitize.Text(t.Description), InputSchema: raw}
		if tool.Title == "" && t.Annotations != nil {
			tool.Title = sanitize.Line(t.Annotations.Title)
		}
		if a := t.Annotations; a != nil {
			tool.ReadOnly = a.ReadOnlyHint
			tool.Destructive = a.DestructiveHint != nil && *a.DestructiveHint
		}
		out = append(out, tool)
		if len(out) >= MaxTools {
			break
		}
	}
	return out, nil
}

// Prompts lists the server's prompts; none when it offers no prompts.
func (c *Conn) Prompts(ctx context.Context) ([]Item, error) {
	if r := c.cs.InitializeResult(); r == nil || r.Capabilities == nil || r.Capabilities.Prompts == nil {
		return nil, nil
	}
	var out []Item
	for p, err := range c.cs.Prompts(ctx, nil) {
		if err != nil {
			return out, err
		}
		out = append(out, Item{Name: sanitize.Line(p.Name), Title: sanitize.Line(p.Title), Description: sanitize.Text(p.Description)})
	}
	return out, nil
}

// Resources lists the server's resources; none when it offers none.
func (c *Conn) Resources(ctx context.Context) ([]Item, error) {
	if r := c.cs.InitializeResult(); r == nil || r.Capabilities == nil || r.Capabilities.Resources == nil {
		return nil, nil
	}
	var out []Item
	for p, err := range c.cs.Resources(ctx, nil) {
		if err != nil {
			return out, err
		}
		out = append(out, Item{Name: sanitize.Line(p.Name), Title: sanitize.Line(p.Title), Description: sanitize.Text(p.Description), URI: sanitize.Line(p.URI)})
		if len(out) >= 1000 { // a list to look at, not to hold without end
			break
		}
	}
	return out, nil
}

// Call is one tool call. Args is a JSON object (nil = {}). With a
// ProgressToken, the server may send Progress events carrying it.
type Call struct {
	Name          string
	Args          json.RawMessage
	ProgressToken string
}

// CallTool calls a tool and waits for its result. Cancelling ctx sends
// notifications/cancelled to the server and returns ctx's error. A
// -32042 error is returned as is: read it with c.URLRequired.
func (c *Conn) CallTool(ctx context.Context, call Call) (*mcp.CallToolResult, error) {
	params := &mcp.CallToolParams{Name: call.Name}
	if len(call.Args) > 0 && string(call.Args) != "null" {
		var args map[string]any
		if err := json.Unmarshal(call.Args, &args); err != nil || args == nil {
			return nil, fmt.Errorf("the arguments must be a JSON object")
		}
		params.Arguments = json.RawMessage(call.Args)
	}
	if call.ProgressToken != "" {
		params.SetProgressToken(call.ProgressToken)
	}
	key := call.ProgressToken
	if key == "" {
		key = fmt.Sprintf("\x00%p", params)
	}
	c.mu.Lock()
	c.calls[key] = call.Name
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.calls, key)
		c.mu.Unlock()
	}()
	return c.cs.CallTool(ctx, params)
}

// setTitles keeps the tools' display titles, for the questions asked
// during their calls.
func (c *Conn) setTitles(tools []Tool) {
	titles := make(map[string]string, len(tools))
	for _, t := range tools {
		titles[t.Name] = t.Display()
	}
	c.mu.Lock()
	c.titles = titles
	c.mu.Unlock()
}

// runningCall is the one tool call running, as a question says where it
// comes from (none when no call or several run); the caller holds c.mu.
func (c *Conn) runningCall() question.From {
	if len(c.calls) != 1 {
		return question.From{}
	}
	for _, name := range c.calls {
		title := c.titles[name]
		if title == "" {
			title = sanitize.Line(name)
		}
		return question.From{ToolCall: name, Tool: title}
	}
	return question.From{}
}

// URLRequired reads a -32042 "URL elicitation required" error of a call
// on c: the URL elicitations in its data as URL questions, each checked
// and analyzed as c's URL elicitation/create is (ID 0: there is no request
// to answer; hand them to the session core as question.URLsNeeded).
// refused says why the others were left out. ok is false when err is not
// a -32042 error. A nil c analyzes with the built-in list.
func (c *Conn) URLRequired(err error) (reqs []*question.Question, refused []string, ok bool) {
	var urls *urlcheck.Analyzer
	if c != nil {
		urls = c.cfg.URLs
	}
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || rpc.Code != mcp.CodeURLElicitationRequired {
		return nil, nil, false
	}
	var data struct {
		Elicitations []struct {
			Mode          string `json:"mode"`
			Message       string `json:"message"`
			URL           string `json:"url"`
			ElicitationID string `json:"elicitationId"`
		} `json:"elicitations"`
	}
	if len(rpc.Data) > 0 {
		if err := json.Unmarshal(rpc.Data, &data); err != nil {
			return nil, []string{"the error's data does not parse: " + sanitize.Line(err.Error())}, true
		}
	}
	for i, d := range data.Elicitations {
		if d.Mode != "" && d.Mode != "url" {
			refused = append(refused, fmt.Sprintf("elicitations[%d]: mode %q is not url", i, sanitize.Line(d.Mode)))
			continue
		}
		if len(d.Message) > question.MaxMessageBytes {
			refused = append(refused, fmt.Sprintf("elicitations[%d]: message over %d bytes", i, question.MaxMessageBytes))
			continue
		}
		e, rerr := checkURL(urls, &question.Question{Kind: question.URL, Message: sanitize.Text(d.Message)}, d.ElicitationID, d.URL)
		if rerr != nil {
			refused = append(refused, fmt.Sprintf("elicitations[%d]: %s", i, rerr.Message))
			continue
		}
		reqs = append(reqs, e)
	}
	return reqs, refused, true
}

// ErrorText is a call error in a line for the user: a JSON-RPC error's
// message and code, sanitized.
func ErrorText(err error) string {
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		return fmt.Sprintf("%s (%d)", sanitize.Line(rpc.Message), rpc.Code)
	}
	return sanitize.Line(err.Error())
}
