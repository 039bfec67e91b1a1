package demoagent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	acp "github.com/coder/acp-go-sdk"
)

// Elicitation actions a client may answer with.
const (
	actionAccept  = "accept"
	actionDecline = "decline"
	actionCancel  = "cancel"
)

// elicitParams is elicitation/create's params as ACP puts them on the wire. The SDK's
// UnstableCreateElicitationRequest has no scope (sessionId, toolCallId), so the agent sends
// its own struct; the schema stays raw JSON so its property order survives.
type elicitParams struct {
	SessionId       acp.SessionId             `json:"sessionId"`
	ToolCallId      *acp.ToolCallId           `json:"toolCallId,omitempty"`
	Message         string                    `json:"message"`
	Mode            string                    `json:"mode"`
	RequestedSchema json.RawMessage           `json:"requestedSchema,omitempty"`
	ElicitationId   acp.UnstableElicitationId `json:"elicitationId,omitempty"`
	Url             string                    `json:"url,omitempty"`
}

// elicitResult is the client's answer to elicitation/create.
type elicitResult struct {
	action  string          // accept, decline or cancel
	content json.RawMessage // the accepted content as sent, or nil
	raw     json.RawMessage // the whole response as sent
}

// formParams returns a form-mode request in the turn's session, scoped to call when it is not empty.
func (t *turn) formParams(message, schema string, call acp.ToolCallId) elicitParams {
	p := elicitParams{SessionId: t.s.id, Message: message, Mode: "form", RequestedSchema: json.RawMessage(schema)}
	if call != "" {
		p.ToolCallId = &call
	}
	return p
}

// elicit sends elicitation/create with params (any JSON value, so /bad can send malformed ones)
// and reads the answer. A JSON-RPC error from the client comes back as *acp.RequestError.
func (t *turn) elicit(params any) (elicitResult, error) {
	raw, err := acp.SendRequest[json.RawMessage](t.a.conn, t.ctx, acp.ClientMethodElicitationCreate, params)
	if err != nil {
		return elicitResult{}, err
	}
	return parseElicitResult(raw)
}

// parseElicitResult reads a response by hand rather than through the SDK's union type, which
// decodes an unknown action as "accept" and the content into a map that loses its order.
func parseElicitResult(raw json.RawMessage) (elicitResult, error) {
	var body struct {
		Action  string          `json:"action"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		return elicitResult{}, fmt.Errorf("unreadable elicitation response %s: %w", raw, err)
	}
	switch body.Action {
	case actionAccept, actionDecline, actionCancel:
	default:
		return elicitResult{}, fmt.Errorf("elicitation response with unknown action %q", body.Action)
	}
	if bytes.Equal(bytes.TrimSpace(body.Content), []byte("null")) {
		body.Content = nil
	}
	return elicitResult{action: body.Action, content: body.Content, raw: raw}, nil
}

// describeError renders an error for the reply text: a JSON-RPC error as its code, message and
// data, anything else as its text.
func describeError(err error) string {
	var re *acp.RequestError
	if !errors.As(err, &re) {
		return err.Error()
	}
	s := fmt.Sprintf("%d %s", re.Code, re.Message)
	if re.Data != nil {
		if b, mErr := json.Marshal(re.Data); mErr == nil {
			s += " " + string(b)
		}
	}
	return s
}

// jsonBlock renders raw JSON indented inside a fenced code block, keys in the order received.
func jsonBlock(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		b.Reset()
		b.Write(raw)
	}
	return "```json\n" + b.String() + "\n```\n"
}

// receivedReport is the reply section for one elicitation: what came back, as JSON, or the error.
func receivedReport(heading string, r elicitResult, err error) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "### %s\n\n", heading)
	if err != nil {
		fmt.Fprintf(&sb, "The client answered with an error: `%s`\n\n", describeError(err))
		return sb.String()
	}
	fmt.Fprintf(&sb, "You chose **%s**. Received:\n\n%s\n", r.action, jsonBlock(r.raw))
	return sb.String()
}

// noMode is the text the agent says instead of sending an elicitation mode the client did not declare.
func noMode(mode string) string {
	return fmt.Sprintf("Your client did not declare `elicitation.%s` in `initialize`, so I won't send a %s request; "+
		"I'll carry on with defaults.\n\n", mode, mode)
}
