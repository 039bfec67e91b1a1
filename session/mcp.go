package session

import (
	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/mcpconn"
)

// The core speaks in the request values of package acpconn; an MCP
// server's elicitations become the same values here, so forms, URL
// consent, the no-person policy, hooks, history and the audit log treat
// them as they treat an agent's (a question does not know which protocol
// asked it). The core itself is unchanged for MCP.

// FromMCP returns the event the core takes for an mcpconn event, and false
// for events the core has no use for (progress, logs, lists; the front
// ends draw those).
func FromMCP(ev mcpconn.Event) (acpconn.Event, bool) {
	switch ev := ev.(type) {
	case mcpconn.Elicitation:
		return elicitationFromMCP(ev), true
	case mcpconn.ElicitationComplete:
		return acpconn.ElicitationComplete{ElicitationID: ev.ElicitationID}, true
	case mcpconn.ElicitationClosed:
		return acpconn.RequestClosed{ID: ev.ID, Reason: ev.Reason}, true
	case mcpconn.Exited:
		return acpconn.AgentExited{Exit: acpconn.ExitInfo{Code: -1}, Reason: ev.Reason, Stderr: ev.Stderr}, true
	case mcpconn.Notice:
		return acpconn.Notice{Text: ev.Text, Error: ev.Error}, true
	}
	return nil, false
}

// elicitationFromMCP is the request value of an MCP elicitation; the tool
// call it arrived during is its scope (name the call with a ToolCall
// event of that id to give it a title).
func elicitationFromMCP(e mcpconn.Elicitation) acpconn.ElicitationRequest {
	return acpconn.ElicitationRequest{ID: e.ID, Scope: acpconn.Scope{ToolCallID: e.Call}, Message: e.Message, Mode: e.Mode,
		Schema: e.Schema, RawSchema: e.RawSchema, ElicitationID: e.ElicitationID, URL: e.URL, Report: e.Report}
}

// URLRequiredFromMCP is a -32042 error's URL elicitations as the legacy
// turn end the core knows from ACP: each is asked as a URL (with nothing
// to answer), and once all are complete the core offers the call again
// (Changes.Retry) or, with Policy.AutoRetry, says to send it
// (Changes.Send). Name the call with Prompted(key) before it is made; the
// key comes back in Retry or Send.
func URLRequiredFromMCP(reqs []mcpconn.Elicitation) acpconn.TurnEnded {
	ev := acpconn.TurnEnded{URLNeeded: []acpconn.ElicitationRequest{}}
	for _, r := range reqs {
		ev.URLNeeded = append(ev.URLNeeded, elicitationFromMCP(r))
	}
	return ev
}

// MCPResponder answers the core's questions through an MCP connection.
// MCP has no permission requests: RespondPermission reports false.
func MCPResponder(c *mcpconn.Conn) Responder { return mcpResponder{c} }

type mcpResponder struct{ c *mcpconn.Conn }

func (r mcpResponder) RespondPermission(uint64, string) bool { return false }

func (r mcpResponder) RespondElicitation(id uint64, action string, content map[string]any) bool {
	return r.c.Respond(id, mcpconn.Answer{Action: action, Content: content})
}
