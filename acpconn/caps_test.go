package acpconn

import (
	"strings"
	"testing"
)

func init() {
	// long-stray prints a 5 MiB line that is not JSON-RPC, then answers.
	scripts["long-stray"] = func(a *scripted) {
		p := a.prompt()
		a.raw(strings.Repeat("x", 5<<20))
		a.say("after")
		a.endTurn(p, "end_turn")
	}
}

// A stray stdout line is shown cut to maxOutputLine: 200 of them at the
// 10 MiB line limit were 2 GB for the UI to hold.
func TestStrayLineIsCut(t *testing.T) {
	c := start(t, "long-stray", Config{})
	c.StartPrompt("go")
	_, evs := until[TurnEnded](t, c)
	for _, ev := range evs {
		if o, ok := ev.(AgentOutput); ok {
			if len(o.Line) > maxOutputLine+100 || !strings.Contains(o.Line, "a line of 5242880 bytes, cut") {
				t.Errorf("stray line of %d bytes shown: %.80q…", len(o.Line), o.Line)
			}
			return
		}
	}
	t.Fatal("no AgentOutput for the stray line")
}
