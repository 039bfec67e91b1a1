package acpconn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// tracer writes the protocol trace of --log: every line each way, with a
// timestamp and direction, plus the SDK's own diagnostics. A secret it
// was told of (an API key sent in authenticate) is written as
// [redacted], wherever it appears.
type tracer struct {
	mu      sync.Mutex
	w       io.Writer
	secrets [][]byte // as they appear on the wire: JSON-escaped, unquoted
}

// redactedMark replaces a secret in the trace.
var redactedMark = []byte("[redacted]")

// hide makes the trace redact s from now on.
func (t *tracer) hide(s string) {
	if s == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, form := range secretForms(s) {
		t.secrets = append(t.secrets, form)
	}
}

// secretForms are s as it may appear in a line: as it is, and escaped in
// a JSON string.
func secretForms(s string) [][]byte {
	forms := [][]byte{[]byte(s)}
	if q, err := json.Marshal(s); err == nil && len(q) >= 2 && string(q[1:len(q)-1]) != s {
		forms = append(forms, q[1:len(q)-1])
	}
	return forms
}

// redact replaces every secret in b; the caller holds mu.
func (t *tracer) redact(b []byte) []byte {
	for _, s := range t.secrets {
		if bytes.Contains(b, s) {
			b = bytes.ReplaceAll(b, s, redactedMark)
		}
	}
	return b
}

func newTracer(w io.Writer) *tracer { return &tracer{w: w} }

// line traces one line each way. A line is written as it is only when it
// is JSON with nothing a terminal would obey (no control character, DEL
// or C1, valid UTF-8): the agent's other lines, those not JSON-RPC above
// all, are quoted with Go's escapes, so that `tail -f` of the trace can
// neither set the title nor write the clipboard.
func (t *tracer) line(dir string, b []byte) {
	if t.w == nil {
		return
	}
	b = bytes.TrimRight(b, "\r\n")
	now := time.Now().UTC().Format("15:04:05.000")
	t.mu.Lock()
	defer t.mu.Unlock()
	b = t.redact(b)
	switch {
	case inert(b) && json.Valid(b):
		fmt.Fprintf(t.w, "%s %s %s\n", now, dir, b)
	case json.Valid(b):
		fmt.Fprintf(t.w, "%s %s (escaped) %s\n", now, dir, strconv.QuoteToASCII(string(b)))
	default:
		fmt.Fprintf(t.w, "%s %s (not JSON-RPC) %s\n", now, dir, strconv.QuoteToASCII(string(b)))
	}
}

// inert reports whether b is valid UTF-8 with no control character, DEL
// or C1 control: safe to write to a terminal as it is.
func inert(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 || r >= 0x80 && r < 0xa0 {
			return false
		}
		i += size
	}
	return true
}

// note traces a line of elicit's own ("--"): as it is when inert, else
// quoted as the agent's lines are.
func (t *tracer) note(s string) {
	if t.w == nil {
		return
	}
	if b := []byte(s); !inert(b) || json.Valid(b) {
		t.line("--", b)
		return
	}
	now := time.Now().UTC().Format("15:04:05.000")
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.w, "%s -- %s\n", now, t.redact([]byte(s)))
}

func (t *tracer) logger() *slog.Logger {
	if t.w == nil {
		return logDiscard
	}
	return slog.New(slog.NewTextHandler(lockedWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type lockedWriter struct{ t *tracer }

func (l lockedWriter) Write(p []byte) (int, error) {
	l.t.mu.Lock()
	defer l.t.mu.Unlock()
	if _, err := l.t.w.Write(l.t.redact(append([]byte("sdk: "), p...))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// outWriter is the agent's stdin as the SDK and the gate write to it: one
// whole message per Write, under one lock so that the gate's own answers
// never interleave with the SDK's; each is traced, and each request is
// recorded (before the agent can answer it) so the gate knows its id.
type outWriter struct {
	mu     sync.Mutex
	w      io.Writer
	tracer *tracer
	gate   *gate
}

func (o *outWriter) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.tracer.line("->", p)
	if o.gate != nil {
		o.gate.sent(p)
	}
	return o.w.Write(p)
}
