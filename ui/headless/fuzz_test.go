package headless

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/termout"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// FuzzHeadlessOutput checks what -p writes before its stream's writer:
// no escape at all on stdout (which keeps CR and bidi marks for a pipe),
// plain text on stderr.
func FuzzHeadlessOutput(f *testing.F) {
	uitest.Fuzz(f, func(t *testing.T, s string) {
		var out, errw bytes.Buffer
		h := &headless{ctx: context.Background(), o: Options{Stdout: &out, Stderr: &errw}, core: session.New(nil, session.Policy{}, nil)}
		for _, ev := range uitest.FuzzEvents(s) {
			if _, done := h.apply(ev); done {
				break
			}
		}
		h2 := &headless{ctx: context.Background(), o: Options{Stdout: &out, Stderr: &errw}, core: session.New(nil, session.Policy{}, nil)}
		h2.apply(acpconn.AgentExited{Reason: sanitize.Line(s), Stderr: []string{sanitize.Line(s)}})
		h3 := &headless{ctx: context.Background(), o: Options{Stdout: &out, Stderr: &errw}, core: session.New(nil, session.Policy{}, nil)}
		h3.apply(acpconn.AgentExited{Exit: acpconn.ExitInfo{Code: -1, Remote: true, Lost: true, Err: errors.New(s)}})
		if msg := termout.Check(out.Bytes(), termout.Pipe); msg != "" {
			t.Fatalf("-p stdout lets through %s", msg)
		}
		if msg := termout.Check(errw.Bytes(), termout.Plain); msg != "" {
			t.Fatalf("-p stderr lets through %s", msg)
		}
	})
}
