package session

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
)

// DefaultMaxWaiting is how many questions may wait behind the one in front
// before more are cancelled automatically.
const DefaultMaxWaiting = 8

// Policy says who answers when nobody is asked.
type Policy struct {
	// Person is true when someone at a terminal can answer.
	Person bool
	// Answers (--answers) answers every form without asking: its value for
	// each key, then the defaults. It is never rate-limited.
	Answers map[string]json.RawMessage
	// AcceptDefaults lets a form without a person be answered with its
	// defaults; without it (or Answers, or Decline) such a form is
	// cancelled: nobody chose (see Unattended).
	AcceptDefaults bool
	// Decline (elicit mcp --decline) is the person's "no" to every form
	// and URL, given in advance: they are declined without asking.
	Decline bool
	// Approve allows tool calls when nobody is asked (-p --approve).
	Approve bool
	// ApproveURLs (elicit mcp --approve-urls) hands a URL to the front
	// end when nobody is asked, instead of cancelling it: the front end
	// opens it when its analysis is not high-risk and answers by policy.
	ApproveURLs bool
	// AutoRetry sends a -32042 prompt again once its URL flows complete.
	AutoRetry bool
	// MaxWaiting is how many questions may wait unanswered behind the one
	// in front (DefaultMaxWaiting when 0).
	MaxWaiting int
	// Peer is what notes call the other side ("agent" when empty; elicit
	// mcp says "server"), and Retried what a -32042 retry sends again
	// ("prompt" when empty; "call" for MCP).
	Peer, Retried string
	// FlowsKey is the key that lists pending URL flows, named in the note
	// of an opened URL ("ctrl+g" in the full screen); empty names none
	// (the line session, -p).
	FlowsKey string
	// PermissionsByRule answers permissions by the non-interactive rule
	// (Approve) even when Person is set: elicit serve -p, whose people are
	// remote clients that are shown forms and URLs, not permissions.
	PermissionsByRule bool
	// Quiet (elicit mcp call --quiet) leaves out the note of each form
	// accepted, which is not even formatted: what was declined, cancelled
	// or went wrong is still noted, and the audit log keeps everything.
	Quiet bool
	// Reconnects says the front end reconnects to a remote agent whose
	// connection was lost: its open questions are kept (Detach) until the
	// agent asks them again, or Expire closes them.
	Reconnects bool
}

// Level is the weight of a transcript note.
type Level int

// The levels of a note.
const (
	Info     Level = iota // something elicit did
	Notice                // something to look at
	Error                 // something went wrong
	Decision              // a question's outcome
)

// Note is a line for the transcript. Text is safe to print: everything
// from the agent in it went through package sanitize.
type Note struct {
	Level  Level
	Text   string
	Stderr []string
}

// Changes is what one call changed, for the views to render.
type Changes struct {
	Notes  []Note
	Asked  []*question.Question // new questions, in arrival order
	Closed []Closed             // questions that ended without an answer
	// Retry is a prompt whose URL flows are complete: offer to send it again.
	Retry string
	// Send is a prompt to send now (AutoRetry).
	Send string
	// Prepare lists questions to run Prepare on, off the UI loop, then
	// hand to Prepared.
	Prepare []*question.Question
	// After lists answers to run AfterHooks on, off the UI loop, then
	// hand to Finish.
	After []Pending
	// Keep lists rules "always allow here" keeps: run KeepRule on each,
	// off the UI loop, and show its notes.
	Keep []Keep
}

func (ch *Changes) note(l Level, format string, args ...any) {
	ch.Notes = append(ch.Notes, Note{Level: l, Text: fmt.Sprintf(format, args...)})
}

// Merge appends o's changes to ch.
func (ch *Changes) Merge(o Changes) {
	ch.Notes = append(ch.Notes, o.Notes...)
	ch.Asked = append(ch.Asked, o.Asked...)
	ch.Closed = append(ch.Closed, o.Closed...)
	if o.Retry != "" {
		ch.Retry = o.Retry
	}
	if o.Send != "" {
		ch.Send = o.Send
	}
	ch.Prepare = append(ch.Prepare, o.Prepare...)
	ch.After = append(ch.After, o.After...)
	ch.Keep = append(ch.Keep, o.Keep...)
}

// Core is one session's state apart from its rendering.
type Core struct {
	conn      Source
	pol       Policy
	mem       Memory
	now       func() time.Time
	queue     []*question.Question
	preparing []*question.Question // waiting for Prepare
	writer    *writer
	flows     []*Flow
	doneEarly map[string]bool   // flows the peer completed while their URL was still asked (flows.go)
	tools     map[string]string // tool call id -> display title
	paused    bool
	obs       Observer                    // hears questions asked, answered, closed (SetObserver)
	detached  map[*question.Question]bool // kept open while the connection is down (reattach.go)
	held      []held                      // answers given while detached (reattach.go)

	// A prompt refused with -32042: sent again once these flows complete.
	lastPrompt    string
	legacyPrompt  string
	legacyWaiting map[string]bool
}

// New returns the core of a session whose questions conn asks (a source:
// *acpconn.Conn, *mcpconn.Conn); now is the clock. Use SetMemory to add
// hooks, history and an audit log.
func New(conn Source, pol Policy, now func() time.Time) *Core {
	if now == nil {
		now = time.Now
	}
	if pol.MaxWaiting <= 0 {
		pol.MaxWaiting = DefaultMaxWaiting
	}
	if pol.Peer == "" {
		pol.Peer = "agent"
	}
	if pol.Retried == "" {
		pol.Retried = "prompt"
	}
	return &Core{conn: conn, pol: pol, now: now, tools: map[string]string{}, detached: map[*question.Question]bool{}, writer: newWriter()}
}

// SetMemory gives the core hooks, history and an audit log.
func (c *Core) SetMemory(m Memory) { c.mem = m }

// Close waits for the background writes (audit, history) to finish.
func (c *Core) Close() { c.writer.close() }

// SetConn points the core at a new connection (after a restart); the
// questions of the old one are closed.
func (c *Core) SetConn(conn Source) Changes {
	ch := c.expire("the " + c.pol.Peer + " was restarted")
	ch.Merge(c.closeAll("the " + c.pol.Peer + " was restarted"))
	c.observeClosed(ch)
	c.conn = conn
	return ch
}

// Questions returns the questions waiting, the front one first.
func (c *Core) Questions() []*question.Question { return c.queue }

// Front is the question the user answers now, or nil.
func (c *Core) Front() *question.Question {
	if len(c.queue) == 0 {
		return nil
	}
	return c.queue[0]
}

// Paused reports whether the agent's elicitations are cancelled unasked.
func (c *Core) Paused() bool { return c.paused }

// SetPaused pauses or resumes the agent's elicitations.
func (c *Core) SetPaused(p bool) Changes {
	var ch Changes
	if p == c.paused {
		return ch
	}
	c.paused = p
	if p {
		ch.note(Notice, "questions from this %s are paused: each form and URL is cancelled automatically until you resume them in settings", c.pol.Peer)
	} else {
		ch.note(Info, "questions from this %s are resumed", c.pol.Peer)
	}
	return ch
}

// ToolTitle is the display title of tool call id, or the id made safe.
func (c *Core) ToolTitle(id string) string {
	if id == "" {
		return ""
	}
	if t := c.tools[id]; t != "" {
		return t
	}
	return sanitize.ID(id)
}

// Prompted records that the user sent a prompt: a -32042 retry still
// waiting is dropped, since the user has moved on.
func (c *Core) Prompted(text string) {
	c.lastPrompt = text
	c.legacyPrompt, c.legacyWaiting = "", nil
}

// Apply takes one event of a source's stream: package question's events
// (a question asked or withdrawn, a URL flow complete, a -32042 refusal's
// URLs, a tool call's title, the source gone) change the core; every
// other event (chunks, tool calls, plans…) leaves Changes empty, and the
// views draw it.
func (c *Core) Apply(ev any) Changes {
	ch := c.apply(ev)
	c.observeClosed(ch)
	ch.Notes = append(c.writer.errors(), ch.Notes...)
	return ch
}

func (c *Core) apply(ev any) Changes {
	switch ev := ev.(type) {
	case question.ToolTitle:
		if ev.Title != "" {
			c.tools[ev.ID] = ev.Title
		}
	case question.Asked:
		q := ev.Q
		if q.From.Tool == "" {
			q.From.Tool = c.ToolTitle(q.From.ToolCall)
		}
		q.Arrived = c.now()
		return c.ask(q)
	case question.FlowComplete:
		return c.flowComplete(ev.ElicitationID)
	case question.Withdrawn:
		var ch Changes
		for _, list := range []*[]*question.Question{&c.queue, &c.preparing} {
			for _, q := range *list {
				if ev.ID != 0 && q.ID == ev.ID {
					c.take(q, list)
					ch.Closed = append(ch.Closed, Closed{Q: q, Reason: ev.Reason})
					break
				}
			}
		}
		return ch
	case question.URLsNeeded:
		return c.urlsNeeded(ev.Qs)
	case question.Gone:
		if c.pol.Reconnects && ev.Lost {
			return c.Detach()
		}
		return c.closeAll("the " + c.pol.Peer + " exited")
	}
	return Changes{}
}

func (c *Core) remove(q *question.Question) bool { return c.take(q, &c.queue) }

// take removes q from list; false when it is not there.
func (c *Core) take(q *question.Question, list *[]*question.Question) bool {
	for i, x := range *list {
		if x == q {
			*list = append((*list)[:i], (*list)[i+1:]...)
			delete(c.detached, q)
			return true
		}
	}
	return false
}

func (c *Core) closeAll(reason string) Changes {
	var ch Changes
	for _, q := range append(c.queue, c.preparing...) {
		ch.Closed = append(ch.Closed, Closed{Q: q, Reason: reason})
	}
	c.queue, c.preparing = nil, nil
	clear(c.detached)
	return ch
}

// urlsNeeded asks the URLs of a call refused with -32042 (nothing to
// answer: each is a flow to follow), and offers the call again once all
// are complete.
func (c *Core) urlsNeeded(qs []*question.Question) Changes {
	var ch Changes
	ch.note(Notice, "the %s needs %s completed before it can answer", c.pol.Peer, plural(len(qs), "URL flow", "URL flows"))
	c.legacyPrompt = c.lastPrompt
	c.legacyWaiting = map[string]bool{}
	for _, q := range qs {
		q.ID = 0
		q.Arrived = c.now()
		c.legacyWaiting[q.ElicitationID] = true
		ch.Merge(c.ask(q))
	}
	return ch
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// summary quotes an agent's message for a note.
func summary(s string) string { return sanitize.Summary(s, 60) }

// subject names a question in a note.
func subject(q *question.Question) string {
	switch q.Kind {
	case question.Permission:
		if q.Write != nil {
			return "write to " + q.Write.Path
		}
		t := q.From.Tool
		if t == "" {
			t = "a tool call"
		}
		return "permission for " + t
	case question.URL:
		return "URL " + q.Report.Site()
	}
	if m := strings.TrimSpace(q.Message); m != "" {
		return fmt.Sprintf("form %q", summary(m))
	}
	return "form"
}
