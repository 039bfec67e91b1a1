package demoagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// handle is the connection's MethodHandler: it decodes each client message into the SDK's type
// for it and dispatches to the agent. Requests run on their own goroutines (the SDK's doing);
// notifications (session/cancel) run in order on one goroutine and must not block.
func (a *agent) handle(ctx context.Context, method string, params json.RawMessage) (any, *acp.RequestError) {
	switch method {
	case acp.AgentMethodInitialize:
		p, err := decode[acp.InitializeRequest](params)
		if err != nil {
			return nil, err
		}
		return a.initialize(p), nil
	case acp.AgentMethodAuthenticate:
		if _, err := decode[acp.AuthenticateRequest](params); err != nil {
			return nil, err
		}
		// The demo agent lists no auth methods, so any method id is unknown.
		return nil, acp.NewInvalidParams(map[string]any{"error": "the demo agent has no authentication methods"})
	case acp.AgentMethodSessionNew:
		p, err := decode[acp.NewSessionRequest](params)
		if err != nil {
			return nil, err
		}
		return a.newSession(p), nil
	case acp.AgentMethodSessionPrompt:
		p, err := decode[acp.PromptRequest](params)
		if err != nil {
			return nil, err
		}
		return a.prompt(ctx, p)
	case acp.AgentMethodSessionCancel:
		p, err := decode[acp.CancelNotification](params)
		if err != nil {
			return nil, err
		}
		if s := a.session(p.SessionId); s != nil {
			s.cancelTurn()
		}
		return nil, nil
	case acp.AgentMethodSessionSetMode:
		p, err := decode[acp.SetSessionModeRequest](params)
		if err != nil {
			return nil, err
		}
		return a.setMode(ctx, p)
	case acp.AgentMethodSessionSetConfigOption:
		p, err := decode[acp.SetSessionConfigOptionRequest](params)
		if err != nil {
			return nil, err
		}
		return a.setConfigOption(p)
	default:
		return nil, acp.NewMethodNotFound(method)
	}
}

// decode unmarshals params into T and runs its Validate method when it has one.
func decode[T any](params json.RawMessage) (T, *acp.RequestError) {
	var v T
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	if err := json.Unmarshal(params, &v); err != nil {
		return v, acp.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	if val, ok := any(&v).(interface{ Validate() error }); ok {
		if err := val.Validate(); err != nil {
			return v, acp.NewInvalidParams(map[string]any{"error": err.Error()})
		}
	}
	return v, nil
}

// initialize records which elicitation modes the client declared and describes the agent.
// In ACP an empty elicitation object declares no mode at all.
func (a *agent) initialize(p acp.InitializeRequest) acp.InitializeResponse {
	var caps capabilities
	if e := p.ClientCapabilities.Elicitation; e != nil {
		caps.form = e.Form != nil
		caps.url = e.Url != nil
	}
	a.mu.Lock()
	a.caps = caps
	a.mu.Unlock()
	return acp.InitializeResponse{
		ProtocolVersion: acp.ProtocolVersionNumber,
		AgentInfo:       &acp.Implementation{Name: agentName, Title: acp.Ptr(agentTitle), Version: agentVersion},
		AuthMethods:     []acp.AuthMethod{},
	}
}

// commandsDelay is how long after session/new the available commands are announced: the
// notification must not overtake the response that tells the client the session id.
const commandsDelay = 20 * time.Millisecond

// newSession creates a session with its modes and config option, and announces the commands
// shortly after the response.
func (a *agent) newSession(p acp.NewSessionRequest) acp.NewSessionResponse {
	s := newSession(p.Cwd)
	a.mu.Lock()
	a.sessions[s.id] = s
	a.mu.Unlock()
	go func() {
		time.Sleep(commandsDelay)
		n := acp.SessionNotification{SessionId: s.id, Update: acp.SessionUpdate{
			AvailableCommandsUpdate: &acp.SessionAvailableCommandsUpdate{AvailableCommands: availableCommands()},
		}}
		if err := a.conn.SendNotification(context.Background(), acp.ClientMethodSessionUpdate, n); err != nil {
			a.log.Debug("announce commands", "err", err)
		}
	}()
	return acp.NewSessionResponse{
		SessionId:     s.id,
		Modes:         s.modeState(),
		ConfigOptions: s.configOptions(),
	}
}

// setMode switches the session's mode and confirms it with a current_mode_update.
func (a *agent) setMode(ctx context.Context, p acp.SetSessionModeRequest) (any, *acp.RequestError) {
	s := a.session(p.SessionId)
	if s == nil {
		return nil, unknownSession(p.SessionId)
	}
	if err := s.setMode(p.ModeId); err != nil {
		return nil, acp.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	n := acp.SessionNotification{SessionId: s.id, Update: acp.SessionUpdate{
		CurrentModeUpdate: &acp.SessionCurrentModeUpdate{CurrentModeId: p.ModeId},
	}}
	if err := a.conn.SendNotification(ctx, acp.ClientMethodSessionUpdate, n); err != nil {
		a.log.Debug("mode update", "err", err)
	}
	return acp.SetSessionModeResponse{}, nil
}

// setConfigOption changes the session's one config option and answers with all of them.
func (a *agent) setConfigOption(p acp.SetSessionConfigOptionRequest) (any, *acp.RequestError) {
	v := p.ValueId
	if v == nil {
		return nil, acp.NewInvalidParams(map[string]any{"error": "the demo agent's options take a value id, not a boolean"})
	}
	s := a.session(v.SessionId)
	if s == nil {
		return nil, unknownSession(v.SessionId)
	}
	if err := s.setOption(v.ConfigId, v.Value); err != nil {
		return nil, acp.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	return acp.SetSessionConfigOptionResponse{ConfigOptions: s.configOptions()}, nil
}

// prompt runs one turn. The turn's context ends on session/cancel, on a newer prompt in the same
// session and when the client goes away; a cancelled turn answers stopReason "cancelled".
func (a *agent) prompt(ctx context.Context, p acp.PromptRequest) (any, *acp.RequestError) {
	s := a.session(p.SessionId)
	if s == nil {
		return nil, unknownSession(p.SessionId)
	}
	turnCtx, done := s.startTurn(ctx)
	defer done()
	t := &turn{ctx: turnCtx, a: a, s: s}
	err := t.run(promptText(p.Prompt))
	if turnCtx.Err() != nil {
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	}
	var legacy *urlRequired
	if errors.As(err, &legacy) {
		return nil, legacy.requestError()
	}
	if err != nil {
		return nil, acp.NewInternalError(map[string]any{"error": err.Error()})
	}
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

func unknownSession(id acp.SessionId) *acp.RequestError {
	return acp.NewInvalidParams(map[string]any{"error": fmt.Sprintf("unknown session %q", id)})
}

// promptText joins the text blocks of a prompt; a resource link adds its URI, other blocks add nothing.
func promptText(blocks []acp.ContentBlock) string {
	var text string
	for _, b := range blocks {
		switch {
		case b.Text != nil:
			text += b.Text.Text
		case b.ResourceLink != nil:
			text += " " + b.ResourceLink.Uri
		}
	}
	return text
}
