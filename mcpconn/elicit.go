package mcpconn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// pending is an elicitation waiting for its answer.
type pending struct {
	q      *question.Question
	answer chan question.Outcome // buffered: Answer never blocks
	gone   chan struct{}
}

// ErrClosed is what a handler returns when the connection ended while it
// waited for the user.
var ErrClosed = errors.New("mcpconn: the connection ended")

// elicit is the SDK's ElicitationHandler: it checks what the SDK leaves
// to the client, hands the request to the reader as a question
// (question.Asked), and waits for Answer, the server's cancellation or the
// end of the connection.
func (c *Conn) elicit(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	q, a, rerr := c.parse(req.Params)
	if rerr != nil {
		what := "a form"
		if q.Kind == question.URL {
			what = "a URL request"
		}
		c.emit(Notice{Text: fmt.Sprintf("refused %s from %s: %s", what, c.info.Name, sanitize.Summary(rerr.Message, 300)), Error: true})
		return nil, rerr
	}
	p := &pending{q: q, answer: make(chan question.Outcome, 1), gone: make(chan struct{})}
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		return nil, ErrClosed
	}
	c.nextID++
	q.ID = c.nextID
	c.pending[q.ID] = p
	q.From = c.runningCall()
	c.mu.Unlock()
	c.emit(question.Asked{Q: q})
	select {
	case out := <-p.answer:
		return c.result(q, out), nil
	case <-ctx.Done():
		// The SDK ends a handler's context when the server withdraws the
		// request, and also when the connection ends: only the first is
		// said here (the observer saw the notification before the SDK
		// acted on it); the end of the connection closes the rest. An
		// input request (no request of its own) ends with its call.
		reason := ""
		switch {
		case c.obs.withdrawn(a):
			reason = "withdrawn by the server"
		case a == nil:
			reason = "its tool call ended"
		}
		if reason != "" && c.take(q.ID) != nil {
			c.emit(question.Withdrawn{ID: q.ID, Reason: reason})
		}
		return nil, ctx.Err()
	case <-p.gone:
		return nil, ErrClosed
	case <-c.quit: // Close: the end of the connection closes the question
		return nil, ErrClosed
	}
}

// take removes a pending elicitation; nil when it is gone already.
func (c *Conn) take(id uint64) *pending {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.pending[id]
	delete(c.pending, id)
	return p
}

// Answer answers q, an elicitation this connection asked (question.Asked),
// with out: the session core's Source. It reports false when q no longer
// waits (the server withdrew it, or the connection ended; a -32042 URL
// has nothing to answer). An accepted form's content is checked against
// the schema first: content that does not fit is never sent (the form is
// cancelled, with a Notice saying why).
func (c *Conn) Answer(q *question.Question, out question.Outcome) bool {
	if q.ID == 0 {
		return false
	}
	p := c.take(q.ID)
	if p == nil {
		return false
	}
	p.answer <- out
	return true
}

// result is the ElicitResult for an outcome: its action as it is, with a
// form's accepted content once it fits the schema.
func (c *Conn) result(q *question.Question, out question.Outcome) *mcp.ElicitResult {
	out = out.Reply(q.Kind)
	if out.Action == question.Accept && q.Kind == question.Form {
		if err := q.Schema.Check(out.Content); err != nil {
			// Cancelled, never declined: nobody said no to the form.
			c.emit(Notice{Text: "the answer did not fit the form, so it was cancelled instead: " + sanitize.Summary(err.Error(), 300), Error: true})
			out = question.Outcome{Action: question.Cancel}
		}
	}
	return &mcp.ElicitResult{Action: string(out.Action), Content: plain(out.Content)}
}

// plain gives content the Go types the SDK's schema check reads as JSON
// numbers: a json.Number (what forms produce, exact) becomes an int64
// when it is whole and fits, else a float64. (The SDK's validator takes a
// json.Number for a string.)
func plain(content map[string]any) map[string]any {
	if content == nil {
		return nil
	}
	out := make(map[string]any, len(content))
	for k, v := range content {
		if n, ok := v.(json.Number); ok {
			if i, err := n.Int64(); err == nil {
				v = i
			} else if f, err := n.Float64(); err == nil {
				v = f
			}
		}
		out[k] = v
	}
	return out
}

// invalidParams is a -32602 error whose message names what is wrong, with
// the property (when there is one) and the reason in its data too.
func invalidParams(property, reason string) *jsonrpc.Error {
	msg := "Invalid params: " + reason
	data := map[string]any{"reason": reason}
	if property != "" {
		msg = fmt.Sprintf("Invalid params: %s: %s", property, reason)
		data["property"] = property
	}
	raw, _ := json.Marshal(data)
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg, Data: raw}
}

// parse checks an elicitation's params the way the SDK does not: the mode
// was declared, a URL request has an elicitationId and an http(s) URL, the
// schema is in the restricted subset (read in the server's order).
func (c *Conn) parse(p *mcp.ElicitParams) (q *question.Question, a *asked, rerr *jsonrpc.Error) {
	mode := p.Mode
	if mode == "" { // the SDK's own inference
		mode = "form"
		if p.URL != "" || p.ElicitationID != "" {
			mode = "url"
		}
	}
	q = &question.Question{Kind: question.Form}
	if mode == "form" {
		var raw json.RawMessage
		raw, a = c.obs.claim(p.Message, p.RequestedSchema)
		rerr = c.parseForm(q, p, raw)
		return q, a, rerr
	}
	if mode == "url" {
		q.Kind = question.URL
		a = c.obs.claimURL(p.Message, p.URL, p.ElicitationID)
	}
	rerr = c.parseURL(q, mode, p)
	return q, a, rerr
}

// parseForm checks a form elicitation; raw is its schema as the server
// wrote it, when the observer saw it.
func (c *Conn) parseForm(e *question.Question, p *mcp.ElicitParams, raw json.RawMessage) *jsonrpc.Error {
	if err := question.CheckMessage(p.Message); err != nil {
		return invalidParams("message", err.Error())
	}
	e.Message = sanitize.Text(p.Message)
	if c.cfg.NoForm {
		return invalidParams("mode", "form mode was not declared by this client")
	}
	if raw == nil {
		var err error
		if raw, err = json.Marshal(p.RequestedSchema); err != nil || p.RequestedSchema == nil {
			return invalidParams("requestedSchema", "requestedSchema is required in form mode")
		}
	}
	if err := question.CheckSchema(raw); err != nil {
		return invalidParams("requestedSchema", err.Error())
	}
	s, err := c.forms.Parse(raw) // a server asks one form again and again
	if err != nil {
		var se *schema.SchemaError
		switch {
		case errors.As(err, &se) && se.Property != "":
			return invalidParams("requestedSchema.properties."+se.Property, se.Reason)
		case errors.As(err, &se):
			return invalidParams("requestedSchema", se.Reason)
		}
		return invalidParams("requestedSchema", err.Error())
	}
	e.Schema, e.RawSchema = s, raw
	return nil
}

// parseURL checks a URL elicitation (or refuses an unknown mode).
func (c *Conn) parseURL(e *question.Question, mode string, p *mcp.ElicitParams) *jsonrpc.Error {
	if err := question.CheckMessage(p.Message); err != nil {
		return invalidParams("message", err.Error())
	}
	e.Message = sanitize.Text(p.Message)
	if mode != "url" {
		return invalidParams("mode", fmt.Sprintf(`unknown mode %q ("form" or "url")`, sanitize.Line(mode)))
	}
	if c.cfg.NoURL {
		return invalidParams("mode", "url mode was not declared by this client")
	}
	_, rerr := checkURL(c.cfg.URLs, e, p.ElicitationID, p.URL)
	return rerr
}

// checkURL fills a URL elicitation's id, URL and analysis (by urls),
// refusing one without an id or with a URL that is not http(s).
func checkURL(urls *urlcheck.Analyzer, e *question.Question, id, raw string) (*question.Question, *jsonrpc.Error) {
	if id == "" {
		return e, invalidParams("elicitationId", "elicitationId is required in url mode")
	}
	if raw == "" {
		return e, invalidParams("url", "url is required in url mode")
	}
	e.ElicitationID, e.URL = id, raw
	e.Report = urls.Analyze(raw)
	if e.Report.Invalid() {
		reason := "invalid"
		for _, w := range e.Report.Warnings {
			if w.Code == "invalid" {
				reason = w.Message
			}
		}
		return e, invalidParams("url", "url does not parse: "+reason)
	}
	if !e.Report.Openable() {
		return e, invalidParams("url", fmt.Sprintf("url scheme %q is not allowed: only http and https are opened", sanitize.Line(e.Report.Scheme)))
	}
	return e, nil
}

// refusedBySDK tells the user of an elicitation the SDK answered with an
// error before the handler saw it (its own schema rules are stricter than
// elicit's in places).
func (c *Conn) refusedBySDK(message, reason string) {
	c.emit(Notice{Text: fmt.Sprintf("refused a form from %s (%q): %s", c.info.Name, sanitize.Summary(message, 60), sanitize.Summary(reason, 300)), Error: true})
}

func sortIDs(ids []uint64) { slices.Sort(ids) }
