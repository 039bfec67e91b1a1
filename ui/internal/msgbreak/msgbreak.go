// Package msgbreak is the one rule for where an agent's streamed text
// starts a new message, which every front end follows (the full screen's
// transcript, the accessible session and -p):
//
//	var r msgbreak.Rule
//	if r.Chunk(chunk.MessageID) { /* a new message: a paragraph break */ }
//	r.Tool(call.ID) // on a tool call or an update to one
//
// A new message starts wherever the agent's messageId changes, to and from
// none included (Claude Code's warning after a reply has none); after a
// user message between two runs of the agent's text; and, for an agent
// that sends no ids at all (codex-acp), after a tool call or a permission
// request that came between two runs of text. An update to a tool call
// seen before is no boundary: codex-acp reports a finished call again,
// late, in the middle of the next message.
package msgbreak

import (
	"io"
	"sync"
)

// Rule follows one stream of text chunks; the zero value is ready.
type Rule struct {
	open  bool   // a message has text
	id    string // its messageId ("" for none)
	cut   bool   // a tool call came since its last chunk
	apart bool   // a user message came since its last chunk
	// tools are the tool calls seen (by id), so that an update to one is
	// told from a new call; at most maxTools, then forgotten all at once.
	tools map[string]struct{}
}

// maxTools bounds the tool call ids a Rule remembers. Past it they are
// forgotten, and a late update to a forgotten call counts as a new call
// (a paragraph break, not lost text).
const maxTools = 4096

// Chunk takes the next chunk's message id and reports whether the chunk
// starts a new message after one that had text.
func (r *Rule) Chunk(id string) bool {
	brk := r.open && (id != r.id || id == "" && r.cut || r.apart)
	r.open, r.id, r.cut, r.apart = true, id, false, false
	return brk
}

// Tool notes a tool call, or an update to one, between chunks. A call not
// seen before (a tool_call, or an update that came first) is an
// Interrupt; an update to a call seen before is not: it says no more than
// that an earlier call moved on.
func (r *Rule) Tool(id string) {
	if _, seen := r.tools[id]; seen {
		return
	}
	if r.tools == nil || len(r.tools) >= maxTools {
		r.tools = map[string]struct{}{}
	}
	r.tools[id] = struct{}{}
	r.Interrupt()
}

// Interrupt notes something that stands between chunks (a new tool call,
// or a permission request naming one): without message ids, the text
// after it is a new message.
func (r *Rule) Interrupt() {
	if r.open {
		r.cut = true
	}
}

// Apart notes a message of another role between chunks (a user message):
// the text after it is a new message, whatever the ids say.
func (r *Rule) Apart() {
	if r.open {
		r.apart = true
	}
}

// Reset forgets the message (a new turn starts). The tool calls seen are
// kept: one may be reported again, late, in the next turn.
func (r *Rule) Reset() { *r = Rule{tools: r.tools} }

// Writer is an output that knows how what it wrote ends, so a front end
// can start a paragraph with exactly one empty line before it, whatever
// came last (the agent's text, or a line of elicit's own). It is safe for
// use by several goroutines (the accessible session's Ctrl+Z handler
// writes too).
type Writer struct {
	W    io.Writer
	mu   sync.Mutex
	last [2]byte // the last two bytes written, the last one at [1]
	n    int     // bytes written, up to 2
}

// Write implements io.Writer.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.write(p)
}

func (w *Writer) write(p []byte) (int, error) {
	n, err := w.W.Write(p)
	for _, c := range p[:n] {
		w.last[0], w.last[1] = w.last[1], c
		w.n = min(w.n+1, 2)
	}
	return n, err
}

// EndLine ends an unfinished line.
func (w *Writer) EndLine() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.endLine()
}

func (w *Writer) endLine() {
	if w.n > 0 && w.last[1] != '\n' {
		w.write([]byte("\n"))
	}
}

// Paragraph ends what was written with one empty line; nothing when
// nothing was written.
func (w *Writer) Paragraph() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.endLine()
	if w.n > 0 && (w.n < 2 || w.last[0] != '\n') {
		w.write([]byte("\n"))
	}
}
