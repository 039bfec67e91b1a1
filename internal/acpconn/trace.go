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

// writer wraps the agent's stdin so each outbound message is traced.
func (t *tracer) writer(w io.Writer) io.Writer {
	if t.w == nil {
		return w
	}
	return traceWriter{w: w, t: t}
}

type traceWriter struct {
	w io.Writer
	t *tracer
}

func (tw traceWriter) Write(p []byte) (int, error) {
	tw.t.line("->", p) // the SDK writes one whole message per call
	return tw.w.Write(p)
}
