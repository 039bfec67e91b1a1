package acpconn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// SessionCaps says what the agent can do with sessions besides creating
// them (initialize's loadSession and sessionCapabilities).
type SessionCaps struct {
	List, Resume, Load, Close bool
}

// SessionCaps reports the agent's session capabilities.
func (c *Conn) SessionCaps() SessionCaps {
	ac := c.Info.AgentCapabilities
	sc := ac.SessionCapabilities
	return SessionCaps{List: sc.List != nil, Resume: sc.Resume != nil, Load: ac.LoadSession, Close: sc.Close != nil}
}

// CanReopen reports whether a past session can be taken up again, by
// session/resume or session/load.
func (s SessionCaps) CanReopen() bool { return s.Resume || s.Load }

// SessionSummary is one past session of session/list, safe to draw.
type SessionSummary struct {
	ID, Title, Cwd string
	Updated        time.Time // zero when the agent gave none (or gave no time)
}

// ErrNotSupported says the agent does not offer what was asked.
var ErrNotSupported = errors.New("the agent does not support this")

// maxListPages bounds how many pages of session/list are read.
const maxListPages = 20

// ListSessions lists the agent's sessions in this connection's directory,
// the most recently updated first.
func (c *Conn) ListSessions(ctx context.Context) ([]SessionSummary, error) {
	if !c.SessionCaps().List {
		return nil, ErrNotSupported
	}
	cwd := c.root
	var out []SessionSummary
	var cursor *string
	for page := 0; page < maxListPages; page++ {
		resp, err := sendRequest[acp.ListSessionsResponse](c, ctx, acp.AgentMethodSessionList, acp.ListSessionsRequest{Cwd: &cwd, Cursor: cursor})
		if err != nil {
			if IsAuthRequired(err) {
				return nil, readable(err)
			}
			return nil, c.describe("session/list", err)
		}
		for _, s := range resp.Sessions {
			if s.Cwd != "" && s.Cwd != cwd {
				continue // the filter is the agent's; a stray entry is not ours
			}
			ss := SessionSummary{ID: string(s.SessionId), Cwd: sanitize.Line(s.Cwd)}
			if s.Title != nil {
				ss.Title = sanitize.Line(*s.Title)
			}
			if s.UpdatedAt != nil {
				ss.Updated, _ = time.Parse(time.RFC3339Nano, *s.UpdatedAt)
			}
			out = append(out, ss)
		}
		if resp.NextCursor == nil || *resp.NextCursor == "" {
			break
		}
		cursor = resp.NextCursor
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, nil
}

// OpenSession takes up a past session: with session/load when the agent
// supports it and replay is wanted (the agent sends the history as
// session/update events before this returns), else with session/resume
// (no history), else with load. replayed reports which one ran.
func (c *Conn) OpenSession(ctx context.Context, id string, replay bool) (st SessionState, replayed bool, err error) {
	caps := c.SessionCaps()
	switch {
	case caps.Load && (replay || !caps.Resume):
		st, err = c.loadSession(ctx, id)
		return st, true, err
	case caps.Resume:
		st, err = c.resumeSession(ctx, id)
		return st, false, err
	}
	return SessionState{}, false, ErrNotSupported
}

// resumeSession takes up session id without its history (session/resume).
func (c *Conn) resumeSession(ctx context.Context, id string) (SessionState, error) {
	prev := c.adopt(id)
	resp, err := sendRequest[acp.ResumeSessionResponse](c, ctx, acp.AgentMethodSessionResume, acp.ResumeSessionRequest{SessionId: acp.SessionId(id), Cwd: c.root, McpServers: c.mcpServers()})
	if err != nil {
		c.adopt(prev)
		if IsAuthRequired(err) {
			return SessionState{}, readable(err)
		}
		return SessionState{}, c.describe("session/resume", err)
	}
	c.sayMCP()
	return sessionState(id, resp.Modes, resp.Models, resp.ConfigOptions), nil
}

// loadSession takes up session id and has the agent replay its history
// (session/load): the replay arrives as events, like a live turn.
func (c *Conn) loadSession(ctx context.Context, id string) (SessionState, error) {
	prev := c.adopt(id) // the replay is about this session: it is ours from now
	resp, err := sendRequest[acp.LoadSessionResponse](c, ctx, acp.AgentMethodSessionLoad, acp.LoadSessionRequest{SessionId: acp.SessionId(id), Cwd: c.root, McpServers: c.mcpServers()})
	if err != nil {
		c.adopt(prev)
		if IsAuthRequired(err) {
			return SessionState{}, readable(err)
		}
		return SessionState{}, c.describe("session/load", err)
	}
	// The replay reaches the UI before the caller says the session is open.
	c.reader.waitNotifications(orderWait)
	c.sayMCP()
	return sessionState(id, resp.Modes, resp.Models, resp.ConfigOptions), nil
}

// CloseSession ends the current session with session/close when the
// agent supports it; otherwise it does nothing.
func (c *Conn) CloseSession(ctx context.Context) error {
	id := c.SessionID()
	if id == "" || !c.SessionCaps().Close {
		return nil
	}
	_, err := sendRequest[acp.CloseSessionResponse](c, ctx, acp.AgentMethodSessionClose, acp.CloseSessionRequest{SessionId: acp.SessionId(id)})
	if err != nil {
		return c.describe("session/close", err)
	}
	return nil
}

// adopt makes id the session prompts go to and returns the previous one.
func (c *Conn) adopt(id string) string {
	c.addSession(id) // updates for it (a load's replay too) pass the gate
	c.mu.Lock()
	prev := c.session
	c.session = id
	c.mu.Unlock()
	if c.early.Swap(false) {
		if n := c.dropped.Load(); n > 0 {
			c.emit(Notice{Text: fmt.Sprintf("dropped %d events the agent sent while it was starting", n), Error: true})
		}
	}
	return prev
}

// sessionState gathers what session/new, /resume and /load answered.
func sessionState(id string, modes *acp.SessionModeState, models *acp.SessionModelState, opts []acp.SessionConfigOption) SessionState {
	st := SessionState{ID: id, Options: configOptions(opts)}
	if modes != nil {
		st.Mode = string(modes.CurrentModeId) // exact, for the wire
		for _, md := range modes.AvailableModes {
			mode := Mode{ID: string(md.Id), Name: sanitize.Line(md.Name)}
			if md.Description != nil {
				mode.Description = sanitize.Line(*md.Description)
			}
			st.Modes = append(st.Modes, mode)
		}
	}
	if models != nil {
		st.Model = string(models.CurrentModelId)
		for _, md := range models.AvailableModels {
			ch := Choice{ID: string(md.ModelId), Name: sanitize.Line(md.Name)}
			if md.Description != nil {
				ch.Description = sanitize.Line(*md.Description)
			}
			st.Models = append(st.Models, ch)
		}
	}
	return st
}

// jsonRoundTrip decodes v, a decoded JSON value, into out; n is the size
// of its encoding.
func jsonRoundTrip(v any, out any) (n int, err error) {
	b, err := json.Marshal(v)
	if err != nil {
		return 0, err
	}
	return len(b), json.Unmarshal(b, out)
}
