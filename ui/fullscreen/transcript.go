package fullscreen

import (
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/elicit-dev/elicit/ui/internal/msgbreak"

	"github.com/elicit-dev/elicit/acpconn"
	histstore "github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/theme"
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
	kindLines // plain lines in a style: an MCP server's results, logs, calls (transcript_lines.go)
)

// item is one transcript entry. An agent message keeps its source text
// as settled blocks and a streaming tail (body), each with its render for
// one width; the other kinds are short and render whole (cache).
type item struct {
	kind   itemKind
	text   strings.Builder // every kind but kindAgent
	body   *mdBody         // kindAgent
	tool   acpconn.ToolCall
	output strings.Builder // kindTool: its terminal's output (last bytes)
	// refused says why a write of the tool call was refused (kindTool):
	// whatever status the agent reports, it is not done as approved.
	refused string
	wrote   string // kindTool: elicit's write of its file, once done (fswrite.go)
	plan    acpconn.Plan
	stderr  []string
	msgID   string // the agent's message id of streamed text ("" when none)

	words  int  // kindThought: words so far, counted as they stream
	inWord bool // kindThought: the text ends inside a word

	clock toolClock // kindTool: how long its command has run

	style  lineStyle // kindLines: how its lines are drawn
	fold   int       // kindLines: how many of its lines show (0: all); the export has them all
	joined bool      // drawn right under the entry before it, with no blank line (a result's parts)

	streaming bool
	dirty     bool // the render in cache is out of date
	cache     renderCache
	// count is its render's line count in the transcript's layout layout
	// (while not dirty): a view below which it lies counts it unrendered.
	count  int
	layout uint32
	// logged says text is in the transcript's log (at logOff, logLen
	// bytes), no longer in text: a finished thought.
	logged bool
	logOff int64
	logLen int
}

func (it *item) invalidate() { it.dirty = true }

// transcript is the list of entries and what it takes to draw its end.
type transcript struct {
	items   []*item
	tools   map[string]*item // tool call id -> entry
	terms   map[string]*item // terminal id -> the entry of a terminal no tool call names
	plan    *item            // the current plan entry, updated in place
	current *item            // the agent message or thought being streamed
	breaks  msgbreak.Rule    // where streamed text starts a new message
	clocks  []*item          // tool entries whose command runs (see tick)
	diffs   diffHold         // the diff text kept (transcript_diffs.go)
	now     func() time.Time
	md      *markdown
	th      *theme.Theme

	showThoughts bool
	root         string // the session directory: locations are shown relative to it
	// refusals are refused writes of tool calls with no entry yet (the
	// agent may name a tool call in its permission only, then report it
	// completed): the entry is marked when it comes.
	refusals map[string]string

	// Render caches: valid for one style epoch (bumped when md or th is
	// replaced); those a view did not use are dropped by sweep.
	epoch   uint64
	lastMD  *markdown
	lastTH  *theme.Theme
	gen     uint64 // views drawn
	touched int    // caches the current view used
	live    []*renderCache

	// layout names the width and style epoch of the last view: line
	// counts kept for one are good while it lasts.
	layout      uint32
	layoutWidth int
	layoutEpoch uint64

	// log holds the settled text: its newest part in memory, the rest in
	// a private file in the state directory (transcript_log.go).
	log *textLog
}

func newTranscript(md *markdown, th *theme.Theme) *transcript {
	return &transcript{tools: map[string]*item{}, terms: map[string]*item{}, md: md, th: th, now: time.Now,
		log: newTextLog(spoolDir(), logKeep)}
}

// spoolDir is where the transcript's older text goes: the state
// directory, when there is one ("" keeps it all in memory).
func spoolDir() string {
	if d := histstore.DefaultDir(); filepath.IsAbs(d) {
		return d
	}
	return ""
}

// close lets the transcript's file go (see textLog).
func (t *transcript) close() { t.log.close() }

func (t *transcript) add(it *item) *item {
	it.dirty = true
	if it.kind == kindAgent && it.body == nil {
		it.body = &mdBody{log: t.log}
	}
	t.items = append(t.items, it)
	return it
}

// endStream marks the streaming entry finished. An agent message's tail
// becomes its last block, keeping its render: nothing is rendered again.
func (t *transcript) endStream() {
	it := t.current
	if it == nil {
		return
	}
	it.streaming, it.dirty = false, true
	if it.body != nil {
		it.body.finish()
	}
	t.stow(it)
	t.current = nil
	t.log.reclaim()
	if err := t.log.failure(); err != nil {
		t.add(&item{kind: kindNotice}).text.WriteString("the transcript could not keep its older text on disk (" +
			sanitize.Text(err.Error()) + "): it keeps it in memory from now on")
	}
}

// stow moves a finished thought's text to the log: a reasoning agent's
// thoughts can be as long as its replies (and a tool's text as long).
func (t *transcript) stow(it *item) {
	if it.logged || it.text.Len() == 0 || it.kind != kindThought && it.kind != kindLines {
		return
	}
	it.logOff, it.logLen = t.log.add(it.text.String())
	it.logged, it.text = true, strings.Builder{}
}

// textOf returns an entry's text, from the log when it went there.
func (t *transcript) textOf(it *item) string {
	if it.logged {
		return t.log.text(it.logOff, it.logLen)
	}
	return it.text.String()
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
// starting a new one when the role changes or msgbreak's rule says a new
// message starts.
func (t *transcript) chunk(c acpconn.MessageChunk) {
	kind := kindAgent
	switch c.Role {
	case acpconn.RoleThought:
		kind = kindThought
	case acpconn.RoleUser:
		kind = kindUser
	}
	newMsg := t.breaks.Chunk(c.MessageID)
	if t.current == nil || t.current.kind != kind || newMsg {
		t.endStream()
		t.current = t.add(&item{kind: kind, streaming: true, msgID: c.MessageID})
	}
	it := t.current
	it.dirty = true
	switch kind {
	case kindAgent:
		it.body.append(c.Text)
		return
	case kindThought:
		for _, r := range c.Text {
			sp := unicode.IsSpace(r)
			if !sp && !it.inWord {
				it.words++
			}
			it.inWord = !sp
		}
	}
	it.text.WriteString(c.Text)
}

// toolCall adds a tool call or merges an update into the existing entry.
// An update for an unknown id (it can arrive before its tool_call) starts
// an entry of its own, so nothing is dropped.
func (t *transcript) toolCall(tc acpconn.ToolCall) {
	t.breaks.Tool(tc.ID)
	it := t.tools[tc.ID]
	if it == nil {
		t.endStream()
		it = t.add(&item{kind: kindTool, tool: tc, refused: t.refusals[tc.ID]})
		delete(t.refusals, tc.ID)
		if it.tool.Status == "" {
			it.tool.Status = "pending"
		}
		t.tools[tc.ID] = it
		t.holdDiffs(it, 0)
		t.clockUpdate(it, tc)
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
	if tc.Diffs != nil {
		before := diffSize(old.Diffs)
		old.Diffs = tc.Diffs
		t.holdDiffs(it, before)
	}
	for _, id := range tc.Terminals {
		if !slices.Contains(old.Terminals, id) {
			old.Terminals = append(old.Terminals, id)
		}
	}
	t.clockUpdate(it, tc)
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

// newTurn starts a turn: the next plan is a new entry, the next text a
// new message.
func (t *transcript) newTurn() {
	t.plan = nil
	t.breaks.Reset()
}
