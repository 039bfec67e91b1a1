package acpconn

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
)

// orderWait bounds how long a request waits for the notifications before
// it (see throttledReader.waitNotifications).
const orderWait = 2 * time.Second

// handle dispatches everything the agent sends but terminal/* requests
// (the gate hands those to terminal_serve.go). The SDK calls it for
// notifications one at a time, in order, and for each request at once on
// a goroutine of its own, so requests can overtake notifications. The SDK
// has decoded the line's envelope (a decode elicit cannot remove without
// leaving the SDK: see scan.go); each case below decodes params once more
// at most (a form's requestedSchema is then read once by the schema
// package).
func (c *Conn) handle(ctx context.Context, method string, params json.RawMessage) (any, *acp.RequestError) {
	switch method {
	case acp.ClientMethodSessionRequestPermission:
		c.reader.release() // it waits for the user: counted as handled now
	case acp.ClientMethodElicitationCreate:
		c.reader.release() // it waits for the user: counted as handled now
		// What the agent sent before the question reaches the UI first.
		c.reader.waitNotifications(orderWait)
	case acp.ClientMethodFsReadTextFile, acp.ClientMethodFsWriteTextFile:
		defer c.reader.release()
	default: // notifications (the gate answers requests this client does not serve)
		defer c.reader.noteHandled()
		defer c.reader.release()
	}
	switch method {
	case acp.ClientMethodSessionUpdate:
		ev, sid, err := decodeUpdate(params)
		if err != nil {
			c.emit(Notice{Text: "ignored a malformed session/update: " + sanitize.Line(err.Error()), Error: true})
			return nil, invalidParams("", err.Error())
		}
		if !c.knownSession(sid, "updates") || c.echo.is(sid, ev) { // the echo of our prompt: shown already
			return nil, nil
		}
		c.toolUpdate(sid, ev) // a finished tool call's approvals end
		linked := c.linkTerminals(ev)
		ev, outputs := c.terminalEvents(ev)
		if tc, ok := ev.(ToolCall); ok && !tc.New {
			// An update's output and exit come before its status: the
			// command ended, then the call completed.
			outputs = append(outputs, ev)
		} else {
			outputs = append([]Event{ev}, outputs...)
		}
		if tc, ok := ev.(ToolCall); ok && tc.Title != "" {
			c.emit(question.ToolTitle{ID: tc.ID, Title: tc.Title}) // for the questions of this call
		}
		for _, o := range outputs {
			c.emit(o)
		}
		for _, t := range linked {
			c.release(t)
		}
		return nil, nil
	case acp.ClientMethodElicitationComplete:
		var p struct {
			ID string `json:"elicitationId"`
		}
		if err := json.Unmarshal(params, &p); err != nil || p.ID == "" {
			return nil, invalidParams("elicitationId", "elicitationId is required")
		}
		c.emit(question.FlowComplete{ElicitationID: p.ID})
		return nil, nil
	case acp.ClientMethodSessionRequestPermission:
		return c.requestPermission(ctx, params)
	case acp.ClientMethodElicitationCreate:
		return c.createElicitation(ctx, params)
	case acp.ClientMethodFsReadTextFile:
		var p acp.ReadTextFileRequest
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, invalidParams("", err.Error())
		}
		return c.readTextFile(ctx, p)
	case acp.ClientMethodFsWriteTextFile:
		var p acp.WriteTextFileRequest
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, invalidParams("", err.Error())
		}
		if err := c.writeTextFile(ctx, p); err != nil {
			return nil, err
		}
		return acp.WriteTextFileResponse{}, nil
	}
	return nil, acp.NewMethodNotFound(method)
}

func (c *Conn) requestPermission(ctx context.Context, params json.RawMessage) (any, *acp.RequestError) {
	// Counted once its files are registered (or it is refused): the
	// writes sent after it wait for that, not for the answer.
	counted := sync.OnceFunc(c.approvals.countOne)
	defer counted()
	var p acp.RequestPermissionRequest
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, invalidParams("", err.Error())
	}
	if len(p.Options) == 0 {
		return nil, invalidParams("options", "a permission request needs at least one option")
	}
	if !c.knownSession(string(p.SessionId), "a permission request") {
		return nil, invalidParams("sessionId", "unknown session")
	}
	ap := c.registerApproval(p)
	counted()
	// Whatever ends the request without an allow option refuses the
	// writes its tool call names.
	allowed, choice := false, "cancelled"
	defer func() { c.approvals.answer(ap, allowed, choice) }()
	// What the agent sent before the question reaches the UI first.
	c.reader.waitNotifications(orderWait)
	cancelled := acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Cancelled: &acp.RequestPermissionOutcomeCancelled{Outcome: "cancelled"}}}
	id, ch, ok := c.register()
	if !ok {
		return cancelled, nil
	}
	tc := toolCallUpdate(p.ToolCall)
	from := question.From{Session: string(p.SessionId), ToolCall: tc.ID, Tool: tc.Title}
	if resp, rerr, answered, ok := c.askQwen(ctx, p, id, ch, from); ok {
		choice = answered
		return resp, rerr
	}
	q := &question.Question{ID: id, Kind: question.Permission, From: from, Tool: askedTool(tc)}
	for _, o := range p.Options {
		q.Options = append(q.Options, question.Option{ID: string(o.OptionId), Name: sanitize.Line(o.Name), Kind: sanitize.Line(string(o.Kind))})
	}
	if !c.emit(question.Asked{Q: q}) {
		c.withdraw(id)
		return cancelled, nil
	}
	out, ok := c.wait(ctx, id, ch)
	if !ok {
		choice = "withdrawn"
		return nil, acp.NewRequestCancelled(nil)
	}
	out = out.Reply(question.Permission)
	if out.Action != question.Accept || out.Option == "" {
		return cancelled, nil
	}
	// Allowed when the option chosen is an allow option: every option of
	// that id, should the agent have offered one id twice.
	found := false
	for _, o := range p.Options {
		if string(o.OptionId) == out.Option {
			isAllow := o.Kind == acp.PermissionOptionKindAllowOnce || o.Kind == acp.PermissionOptionKindAllowAlways
			allowed, found = isAllow && (allowed || !found), true
			choice = sanitize.Summary(o.Name, 40)
		}
	}
	return acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Selected: &acp.RequestPermissionOutcomeSelected{Outcome: "selected", OptionId: acp.PermissionOptionId(out.Option)}}}, nil
}

// askedTool is the tool call a permission is about, as its question
// carries it.
func askedTool(tc ToolCall) *question.Tool {
	return &question.Tool{ID: tc.ID, Title: tc.Title, Kind: tc.Kind, Status: tc.Status, Locations: tc.Locations, Content: tc.Content,
		Diffs: tc.Diffs, Terminals: tc.Terminals}
}

// createElicitation asks a form or URL question and replies with its
// outcome as it is (question.Outcome is the elicitation's result on the
// wire): the answer goes from the person's form to the agent in one type.
func (c *Conn) createElicitation(ctx context.Context, params json.RawMessage) (any, *acp.RequestError) {
	q, rerr := parseElicitation(params, !c.cfg.NoForm, !c.cfg.NoURL, c.cfg.URLs)
	if rerr != nil {
		c.emit(Notice{Text: "refused an elicitation from the agent: " + sanitize.Line(rerr.Message), Error: true})
		return nil, rerr
	}
	if sid := q.From.Session; sid != "" && !c.knownSession(sid, "an elicitation") {
		return nil, invalidParams("sessionId", "unknown session")
	}
	cancel := question.Outcome{Action: question.Cancel}
	id, ch, ok := c.register()
	if !ok {
		return cancel, nil
	}
	q.ID = id
	if !c.emit(question.Asked{Q: q}) {
		c.withdraw(id)
		return cancel, nil
	}
	out, ok := c.wait(ctx, id, ch)
	if !ok {
		return nil, acp.NewRequestCancelled(nil)
	}
	return out.Reply(q.Kind), nil
}
