// Package termout is elicit's one output boundary: every byte elicit writes
// to a terminal or a pipe goes through a Writer whose Policy lets through
// only elicit's own control sequences. Agent text is data, never control.
//
//	out := termout.New(os.Stdout, termout.Plain)
//	fmt.Fprintln(out, agentText) // escapes, C1 and bidi can do no harm
package termout

import (
	"io"
	"sync"
)

// Policy says what a Writer lets through besides text.
type Policy uint8

// The policies, from the most faithful to the most permissive.
const (
	// Pipe is for a stream another program reads: text is kept as sent
	// (carriage returns, bidi marks, zero-width characters), and no escape
	// sequence, C1 control, DEL or C0 control other than newline, tab and
	// carriage return gets through.
	Pipe Policy = iota
	// Plain is for a terminal with no styling: no escape sequence at all,
	// no control but newline and tab, and bidi controls and invisible
	// characters are shown as <U+XXXX>.
	Plain
	// Styled is Plain plus SGR (colours and text attributes): the
	// accessible session, `-p` stderr on a terminal, `elicit form` and
	// `elicit url`.
	Styled
	// Screen is for bubbletea's output: CSI, the OSC commands elicit's
	// renderer and features use (title, clipboard, notifications, colour
	// queries, pointer shape), ESC 7, 8, M, = and >, and the controls
	// CR, LF, BS and TAB. OSC 8 hyperlinks, DCS, APC, PM, SOS, C1 and every
	// other escape are dropped, and so are bidi controls and invisible
	// characters: there the renderer has counted every cell, so making them
	// visible would shift the screen (use View on the content to filter it
	// before the renderer does).
	Screen
	// View is for text that a renderer will lay out (a bubbletea view, a
	// glamour render): SGR, newline and tab only; bidi controls and
	// invisible characters are dropped, since the text's layout was measured
	// without them.
	View
)

// Writer filters what is written through it by its Policy. Writes may split
// a sequence or a character anywhere: the Writer keeps its state between
// them. Each Write makes at most one Write to the underlying writer, so a
// frame written at once stays one write. It is safe for concurrent use.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
	f  filter
}

// New returns a Writer that filters what is written to w by policy.
func New(w io.Writer, policy Policy) *Writer {
	return &Writer{w: w, f: newFilter(policy)}
}

// Write filters p and writes the result. It reports len(p) when the
// underlying write succeeds: dropped bytes count as written.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.f.out = w.f.out[:0]
	w.f.feed(p)
	if len(w.f.out) == 0 {
		return len(p), nil
	}
	if _, err := w.w.Write(w.f.out); err != nil {
		return 0, err
	}
	if cap(w.f.out) > 64*1024 {
		w.f.out = nil // a huge frame once should not pin its buffer
	}
	return len(p), nil
}

// WriteString is Write for a string.
func (w *Writer) WriteString(s string) (int, error) { return w.Write([]byte(s)) }

// String returns s as a Writer with policy would let it through, taking s
// as a whole: an unfinished sequence at its end is dropped, and an
// unfinished character becomes U+FFFD.
func String(s string, policy Policy) string {
	f := newFilter(policy)
	if f.clean(s) {
		return s
	}
	f.out = make([]byte, 0, len(s)+16)
	f.feed([]byte(s))
	f.end()
	return string(f.out)
}
