package acpconn

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
)

// SessionState is what the agent told about a session when it was
// created, resumed or loaded: its modes, models and configuration options
// (see Selector for the one mode and one model the UI shows).
type SessionState struct {
	ID      string
	Modes   []Mode
	Mode    string
	Models  []Choice // the unstable models field (session/set_model)
	Model   string
	Options []ConfigOption
}

// NewSession creates the session all prompts go to. An agent that needs
// authentication first answers -32000: see IsAuthRequired and Authenticate.
// It is bounded by Config.StartTimeout, and an error names what did not
// answer.
func (c *Conn) NewSession(ctx context.Context) (SessionState, error) {
	var resp acp.NewSessionResponse
	err := c.stage(ctx, "session/new", func(ctx context.Context) (err error) {
		resp, err = sendRequest[acp.NewSessionResponse](c, ctx, acp.AgentMethodSessionNew, acp.NewSessionRequest{Cwd: c.root, McpServers: c.mcpServers()})
		return err
	})
	if err != nil {
		return SessionState{}, err
	}
	c.adopt(string(resp.SessionId))
	c.sayMCP()
	return sessionState(string(resp.SessionId), resp.Modes, resp.Models, resp.ConfigOptions), nil
}

// SessionID is the current session, "" before NewSession.
func (c *Conn) SessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
}

// TurnEnded is emitted after every update of a prompt turn, when the
// agent's answer to session/prompt arrived.
type TurnEnded struct {
	StopReason string
	Err        error
	// URLNeeded holds a legacy -32042 answer's URL questions (ID 0: there
	// is nothing to answer), to complete before the prompt is sent again;
	// question.URLsNeeded, with the same questions, comes just before.
	URLNeeded []*question.Question
}

// Failed reports whether the turn ended in an error other than a legacy
// -32042 answer (which asks for URLs, then the same prompt again): the
// agent failed it, or exited during it.
func (e TurnEnded) Failed() bool { return e.Err != nil && e.URLNeeded == nil }

// StartPrompt sends a prompt turn and returns at once; the turn's updates
// arrive as events, followed by exactly one TurnEnded.
func (c *Conn) StartPrompt(text string) {
	c.cancelling.Store(false)
	sid := c.SessionID()
	c.echo.expect(sid, text)
	go func() {
		resp, err := sendRequest[acp.PromptResponse](c, context.Background(), acp.AgentMethodSessionPrompt, acp.PromptRequest{
			SessionId: acp.SessionId(sid),
			Prompt:    []acp.ContentBlock{acp.TextBlock(text)},
		})
		c.echo.expect("", "")      // the updates sent before the answer were handled
		c.noteOverflow()           // a storm's summary comes before the turn's end
		c.approvals.ended(sid, "") // a turn's approvals end with it
		ev := TurnEnded{StopReason: string(resp.StopReason)}
		if err != nil {
			ev.URLNeeded = c.urlRequired(err)
			if ev.URLNeeded == nil {
				ev.Err = c.describe("session/prompt", err)
			} else {
				ev.Err = err
				c.emit(question.URLsNeeded{Qs: ev.URLNeeded})
			}
		}
		c.emit(ev)
	}()
}

// promptEcho recognises the agent's echo of the prompt this client just
// sent: qwen serve streams every prompt back as a live user_message_chunk
// (its _meta.source "bridge-echo"), so that its other clients see it. To
// this client it is the message it sent and already shows: a live user
// message in the prompt's session whose text is the prompt's, while the
// prompt runs, is that message, once. Anything else (another client's
// prompt, a second copy, a load's replay) passes.
type promptEcho struct {
	mu        sync.Mutex
	sessionID string // "" when no prompt waits for its echo
	text      string // the prompt as sent
}

// expect notes the prompt sent to session sid ("" for none).
func (e *promptEcho) expect(sid, text string) {
	e.mu.Lock()
	e.sessionID, e.text = sid, text
	e.mu.Unlock()
}

// is reports whether ev, an update for session sid, is the echo of the
// running prompt; it is, once.
func (e *promptEcho) is(sid string, ev Event) bool {
	ch, ok := ev.(MessageChunk)
	if !ok || ch.Role != RoleUser {
		return false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.sessionID == "" || sid != e.sessionID || ch.Text != sanitize.Text(e.text) ||
		ch.Faithful != "" && ch.Faithful != sanitize.Faithful(e.text) {
		return false
	}
	e.sessionID, e.text = "", ""
	return true
}

// urlRequired decodes a legacy -32042 "URL elicitation required" answer
// into URL questions with nothing to answer (ID 0). Invalid entries are
// reported as a notice and left out.
func (c *Conn) urlRequired(err error) []*question.Question {
	var re *acp.RequestError
	if !errors.As(err, &re) || re.Code != -32042 {
		return nil
	}
	raw, _ := json.Marshal(re.Data)
	var data struct {
		Elicitations []json.RawMessage `json:"elicitations"`
	}
	_ = json.Unmarshal(raw, &data)
	var out []*question.Question
	for _, e := range data.Elicitations {
		q, rerr := parseElicitation(e, false, !c.cfg.NoURL, c.cfg.URLs)
		if rerr != nil {
			c.emit(Notice{Text: "ignored a required URL elicitation: " + sanitize.Line(rerr.Message), Error: true})
			continue
		}
		out = append(out, q)
	}
	if out == nil {
		out = []*question.Question{}
	}
	return out
}

// CancelTurn cancels the running turn as the protocol asks: session/cancel,
// then every pending permission answered "cancelled" and every pending
// elicitation "cancel". The turn still ends with a TurnEnded event, which
// should carry the stop reason "cancelled".
func (c *Conn) CancelTurn() error {
	c.cancelling.Store(true)
	err := c.rpc.SendNotification(context.Background(), acp.AgentMethodSessionCancel, acp.CancelNotification{SessionId: acp.SessionId(c.SessionID())})
	c.cancelPending("the turn was cancelled")
	if err != nil {
		return c.describe("session/cancel", err)
	}
	return nil
}

// RequestTimeout bounds a settings request (set_mode, set_config_option)
// whose context has no deadline of its own.
const RequestTimeout = 60 * time.Second

// bounded gives ctx a deadline of RequestTimeout when it has none.
func bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, RequestTimeout)
}

// SetMode switches the session's mode; id goes to the agent exactly as
// given (Mode.ID is kept exact for that).
func (c *Conn) SetMode(ctx context.Context, id string) error {
	ctx, cancel := bounded(ctx)
	defer cancel()
	_, err := sendRequest[acp.SetSessionModeResponse](c, ctx, acp.AgentMethodSessionSetMode, acp.SetSessionModeRequest{SessionId: acp.SessionId(c.SessionID()), ModeId: acp.SessionModeId(id)})
	if err != nil {
		return c.describe("session/set_mode", err)
	}
	return nil
}

// setConfigOption sets a select option to a value id (or a boolean option
// to "true"/"false") and returns the options as the agent now reports them.
func (c *Conn) setConfigOption(ctx context.Context, opt ConfigOption, value string) ([]ConfigOption, error) {
	ctx, cancel := bounded(ctx)
	defer cancel()
	var req acp.SetSessionConfigOptionRequest
	sid := acp.SessionId(c.SessionID())
	if opt.Boolean {
		req.Boolean = &acp.SetSessionConfigOptionBoolean{SessionId: sid, ConfigId: acp.SessionConfigId(opt.ID), Type: "boolean", Value: value == "true"}
	} else {
		req.ValueId = &acp.SetSessionConfigOptionValueId{SessionId: sid, ConfigId: acp.SessionConfigId(opt.ID), Value: acp.SessionConfigValueId(value)}
	}
	resp, err := sendRequest[acp.SetSessionConfigOptionResponse](c, ctx, acp.AgentMethodSessionSetConfigOption, req)
	if err != nil {
		return nil, c.describe("session/set_config_option", err)
	}
	return configOptions(resp.ConfigOptions), nil
}
