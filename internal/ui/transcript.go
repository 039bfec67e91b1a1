package ui

import (
	"fmt"
	"strings"

	"github.com/elicit-dev/elicit/internal/acpconn"
	"github.com/elicit-dev/elicit/internal/theme"
)

// itemKind says what a transcript entry is.
type itemKind int

const (
	kindUser itemKind = iota
	kindAgent
	kindThought
	kindTool
	kindPlan
	kindInfo
	kindNotice
	kindError
)

// item is one transcript entry. Its rendered lines are cached for one
// width; a finished item is rendered once per width, a streaming one again
// only when it changed (at most every flush interval).
type item struct {
	kind   itemKind
	text   strings.Builder
	tool   acpconn.ToolCall
	plan   acpconn.Plan
	stderr []string
	msgID  string // the agent's message id of streamed text ("" when none)

	streaming bool
	stream    streamState // incremental rendering while streaming
	final     bool        // finished, its final render is being made off the event loop
	dirty     bool
	width     int
	lines     []string
}

func (it *item) invalidate() { it.dirty = true }

// transcript is the list of entries and what it takes to draw its end.
type transcript struct {
	items   []*item
	tools   map[string]*item // tool call id -> entry
	plan    *item            // the current plan entry, updated in place
	current *item            // the agent message or thought being streamed
	md      *markdown
	th      *theme.Theme
	finals  []*item // finished long messages waiting for their final render

	showThoughts bool
}

func newTranscript(md *markdown, th *theme.Theme) *transcript {
	return &transcript{tools: map[string]*item{}, md: md, th: th}
}

func (t *transcript) add(it *item) *item {
	it.dirty = true
	t.items = append(t.items, it)
	return it
}

// syncFinalLimit is the largest finished message rendered on the event
// loop; a longer one keeps its streaming render until its final markdown
// render, made off the loop, comes back (see Model.finalRenders).
const syncFinalLimit = tailMarkdownLimit

// endStream marks the streaming entry finished: its next render is final.
func (t *transcript) endStream() {
	it := t.current
	if it == nil {
		return
	}
	it.streaming, it.dirty = false, true
	it.stream = streamState{}
	if it.kind == kindAgent && it.text.Len() > syncFinalLimit {
		it.final = true
		t.finals = append(t.finals, it)
	}
	t.current = nil
}

func (t *transcript) user(text string) {
	t.endStream()
	it := &item{kind: kindUser}
	it.text.WriteString(text)
	t.add(it)
}

// info adds a routine message from elicit itself (drawn quietly).
func (t *transcript) info(text string) {
	t.endStream() // what streams after it goes below it: the transcript stays in order
	it := &item{kind: kindInfo}
	it.text.WriteString(text)
	t.add(it)
}

// notice adds a warning (or, with isErr, an error) from elicit itself.
func (t *transcript) notice(text string, isErr bool) {
	t.endStream()
	k := kindNotice
	if isErr {
		k = kindError
	}
	it := &item{kind: k}
	it.text.WriteString(text)
	t.add(it)
}

// chunk appends streamed text to the current message of that role,
// starting a new one when the role or the agent's message id changes.
func (t *transcript) chunk(c acpconn.MessageChunk) {
	kind := kindAgent
	switch c.Role {
	case acpconn.RoleThought:
		kind = kindThought
	case acpconn.RoleUser:
		kind = kindUser
	}
	newMsg := c.MessageID != "" && t.current != nil && t.current.msgID != "" && c.MessageID != t.current.msgID
	if t.current == nil || t.current.kind != kind || newMsg {
		t.endStream()
		t.current = t.add(&item{kind: kind, streaming: true, msgID: c.MessageID})
	} else if t.current.msgID == "" {
		t.current.msgID = c.MessageID
	}
	t.current.text.WriteString(c.Text)
	t.current.dirty = true
}

// toolCall adds a tool call or merges an update into the existing entry.
// An update for an unknown id (it can arrive before its tool_call) starts
// an entry of its own, so nothing is dropped.
func (t *transcript) toolCall(tc acpconn.ToolCall) {
	it := t.tools[tc.ID]
	if it == nil {
		t.endStream()
		it = t.add(&item{kind: kindTool, tool: tc})
		if it.tool.Status == "" {
			it.tool.Status = "pending"
		}
		t.tools[tc.ID] = it
		return
	}
	old := &it.tool
	if tc.Title != "" {
		old.Title = tc.Title
	}
	if tc.Kind != "" {
		old.Kind = tc.Kind
	}
	if tc.Status != "" {
		old.Status = tc.Status
	}
	if tc.Locations != nil {
		old.Locations = tc.Locations
	}
	if tc.Content != nil {
		old.Content = tc.Content
	}
	it.dirty = true
}

func (t *transcript) setPlan(p acpconn.Plan) {
	if t.plan == nil {
		t.endStream()
		t.plan = t.add(&item{kind: kindPlan})
	}
	t.plan.plan = p
	t.plan.dirty = true
}

// newTurn starts a turn: the next plan is a new entry.
func (t *transcript) newTurn() { t.plan = nil }

// renderItem returns the item's lines for width, from cache when it can.
// While hold is set (inside a flush interval) a streaming item keeps its
// last render, so it is re-rendered at most once per interval however fast
// chunks arrive.
func (t *transcript) renderItem(it *item, width int, hold bool) []string {
	if it.width == width && it.lines != nil && (!it.dirty || hold && it.streaming || it.final) {
		return it.lines
	}
	it.lines = t.draw(it, width)
	it.width, it.dirty = width, false
	return it.lines
}

// view returns the last height lines of the transcript, scrolled up by
// offset lines. It renders only what it shows, walking back from the end,
// so its cost does not grow with the transcript's length.
func (t *transcript) view(width, height, offset int) (string, int) {
	return t.viewHold(width, height, offset, false)
}

// viewHold is view with streaming entries held at their last render.
func (t *transcript) viewHold(width, height, offset int, hold bool) (string, int) {
	need := height + offset
	var chunks [][]string
	total := 0
	for i := len(t.items) - 1; i >= 0 && total < need; i-- {
		lines := t.renderItem(t.items[i], width, hold)
		chunks = append(chunks, lines)
		total += len(lines) + 1
	}
	out := make([]string, 0, total)
	for i := len(chunks) - 1; i >= 0; i-- {
		out = append(out, chunks[i]...)
		out = append(out, "")
	}
	maxOffset := max(0, len(out)-height)
	if offset > maxOffset {
		offset = maxOffset
	}
	end := len(out) - offset
	start := max(0, end-height)
	shown := out[start:end]
	for len(shown) < height {
		shown = append([]string{""}, shown...)
	}
	return strings.Join(shown, "\n"), offset
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
