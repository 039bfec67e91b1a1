package line

import (
	"bytes"
	"errors"
	"testing"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/internal/termout"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// FuzzLineOutput checks that the accessible session writes plain text
// only, whatever the agent puts in the fields it prints.
func FuzzLineOutput(f *testing.F) {
	uitest.Fuzz(f, func(t *testing.T, s string) {
		var lines bytes.Buffer
		l := &lineSession{o: Options{Out: &lines}, core: session.New(nil, session.Policy{Person: true}, nil), tools: map[string]string{}}
		for _, ev := range append(uitest.FuzzEvents(s), acpconn.AgentExited{Reason: sanitize.Line(s)}) {
			if _, done := l.apply(ev); done {
				break
			}
		}
		// A remote agent's dropped connection, its error the server's words.
		l2 := &lineSession{o: Options{Out: &lines}, core: session.New(nil, session.Policy{Person: true}, nil), tools: map[string]string{}}
		l2.apply(acpconn.AgentExited{Exit: acpconn.ExitInfo{Code: -1, Remote: true, Lost: true, Err: errors.New(s)}})
		if msg := termout.Check(lines.Bytes(), termout.Plain); msg != "" {
			t.Fatalf("the accessible session lets through %s", msg)
		}
	})
}
