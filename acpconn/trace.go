package acpconn

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
)

// tracer writes the protocol trace of --log: every line each way, with a
// timestamp and direction, plus the SDK's own diagnostics.
type tracer struct {
	mu sync.Mutex
	w  io.Writer
}

func newTracer(w io.Writer) *tracer { return &tracer{w: w} }

func (t *tracer) line(dir string, b []byte) {
	if t.w == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.w, "%s %s %s\n", time.Now().UTC().Format("15:04:05.000"), dir, bytes.TrimRight(b, "\r\n"))
}

func (t *tracer) note(s string) {
	t.line("--", []byte(s))
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
	if _, err := l.t.w.Write(append([]byte("sdk: "), p...)); err != nil {
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
