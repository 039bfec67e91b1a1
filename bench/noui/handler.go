package main

import (
	"context"
	"encoding/json"
	"sync/atomic"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/acpconn"
)

// client answers what the agent sends without asking anyone.
type client struct {
	bp      *acpconn.Backpressure
	updates atomic.Int64 // session/update notifications decoded
	text    atomic.Int64 // bytes of streamed text received
	forms   atomic.Int64 // form elicitations accepted
}

// handle is the connection's MethodHandler. Every request here is answered
// at once, so each call counts as handled when it returns.
func (c *client) handle(_ context.Context, method string, params json.RawMessage) (any, *acp.RequestError) {
	defer c.bp.Release()
	switch method {
	case acp.ClientMethodSessionUpdate:
		// The least any client must do with an update: decode it far
		// enough to have its text (one pass, as elicit does for chunks).
		var n struct {
			Update struct {
				Kind    string `json:"sessionUpdate"`
				Content *struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"update"`
		}
		if err := json.Unmarshal(params, &n); err != nil {
			return nil, acp.NewInvalidParams(map[string]any{"error": err.Error()})
		}
		if n.Update.Content != nil {
			c.text.Add(int64(len(n.Update.Content.Text)))
		}
		c.updates.Add(1)
		return nil, nil
	case acp.ClientMethodElicitationCreate:
		resp, rerr := answerElicitation(params)
		if rerr == nil && resp.Accept != nil {
			c.forms.Add(1)
		}
		return resp, rerr
	case acp.ClientMethodSessionRequestPermission:
		return rejectPermission(params)
	case acp.ClientMethodElicitationComplete:
		return nil, nil
	}
	return nil, acp.NewMethodNotFound(method)
}

// elicitation is the part of elicitation/create params noui reads: the mode
// and each property's default. Nothing is validated.
type elicitation struct {
	Mode            string `json:"mode"`
	RequestedSchema struct {
		Properties map[string]struct {
			Default json.RawMessage `json:"default"`
		} `json:"properties"`
	} `json:"requestedSchema"`
}

// answerElicitation accepts a form with its defaults and declines a URL.
func answerElicitation(params json.RawMessage) (acp.UnstableCreateElicitationResponse, *acp.RequestError) {
	var e elicitation
	if err := json.Unmarshal(params, &e); err != nil {
		return acp.UnstableCreateElicitationResponse{}, acp.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	if e.Mode != "form" {
		return acp.UnstableCreateElicitationResponse{Decline: &acp.UnstableCreateElicitationDecline{Action: "decline"}}, nil
	}
	content := map[string]any{}
	for key, p := range e.RequestedSchema.Properties {
		if len(p.Default) == 0 {
			continue
		}
		var v any
		if json.Unmarshal(p.Default, &v) == nil {
			content[key] = v
		}
	}
	return acp.UnstableCreateElicitationResponse{Accept: &acp.UnstableCreateElicitationAccept{Action: "accept", Content: content}}, nil
}

// rejectPermission picks the first reject_once option, or cancels when
// there is none.
func rejectPermission(params json.RawMessage) (acp.RequestPermissionResponse, *acp.RequestError) {
	var p acp.RequestPermissionRequest
	if err := json.Unmarshal(params, &p); err != nil {
		return acp.RequestPermissionResponse{}, acp.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	for _, o := range p.Options {
		if o.Kind == acp.PermissionOptionKindRejectOnce {
			return acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{
				Selected: &acp.RequestPermissionOutcomeSelected{Outcome: "selected", OptionId: o.OptionId},
			}}, nil
		}
	}
	return acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{
		Cancelled: &acp.RequestPermissionOutcomeCancelled{Outcome: "cancelled"},
	}}, nil
}
