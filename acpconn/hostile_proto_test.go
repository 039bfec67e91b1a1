package acpconn

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/question"
)

// Issue case 9: a storm of 5,000 permission requests never has more than
// MaxWaiting waiting; the excess is answered "cancelled" at once and
// summarised in few notices.
func TestPermissionStormIsCapped(t *testing.T) {
	c := start(t, "storm", Config{})
	c.StartPrompt("go")
	var held []*question.Question
	var notices []string
	for {
		switch ev := next(t, c).(type) {
		case question.Asked:
			held = append(held, ev.Q)
			if len(held) > MaxWaiting {
				t.Fatalf("%d permission requests wait at once", len(held))
			}
		case Notice:
			notices = append(notices, ev.Text)
		case MessageChunk:
			if strings.HasPrefix(ev.Text, fmt.Sprintf("got=%d ", 5000-MaxWaiting)) {
				if want := fmt.Sprintf("cancelled=%d", 5000-MaxWaiting); !strings.Contains(ev.Text, want) {
					t.Errorf("agent: %s, want %s", ev.Text, want)
				}
				for _, p := range held {
					c.Answer(p, pick("y"))
				}
			}
		case TurnEnded:
			if ev.Err != nil {
				t.Fatal(ev.Err)
			}
			// One notice in practice (it waits for a quiet second); never
			// one per request, and together they count every one.
			sum := 0
			for _, n := range notices {
				var k int
				if _, err := fmt.Sscanf(n, "cancelled %d requests", &k); err == nil {
					sum += k
				}
			}
			if sum != 5000-MaxWaiting || len(notices) > 10 {
				t.Errorf("notices (%d cancelled in all): %q", sum, notices)
			}
			return
		}
	}
}

// Issue case 9: whatever names a session this client did not create is
// refused (requests) or dropped (updates), and noted.
func TestForeignSessionIsRefused(t *testing.T) {
	c := start(t, "foreign-session", Config{})
	c.StartPrompt("go")
	_, evs := until[TurnEnded](t, c)
	if got := agentText(evs); got != "-32602 -32602 -32602" {
		t.Errorf("agent got %q", got)
	}
	notes := 0
	for _, ev := range evs {
		switch ev := ev.(type) {
		case question.Asked:
			t.Errorf("a foreign request reached the UI: %#v", ev.Q)
		case Notice:
			if strings.Contains(ev.Text, "s-other") {
				notes++
			}
		}
	}
	if notes == 0 {
		t.Error("no notice about the foreign session")
	}
}

// Issue case 9: a request sent without an id is refused without being
// shown, and neither it nor a request this client does not serve upsets
// the ordering bookkeeping (so a later question does not wait the ordering
// wait out).
func TestIdlessAndUnservedRequests(t *testing.T) {
	c := start(t, "idless", Config{})
	c.StartPrompt("go")
	var notes []string
	for {
		switch ev := next(t, c).(type) {
		case question.Asked:
			if ev.Q.Kind == question.Permission {
				t.Error("an id-less permission request reached the UI")
				c.Answer(ev.Q, pick(""))
				continue
			}
			if ev.Q.Message != "real" {
				t.Errorf("an id-less request reached the UI: %q", ev.Q.Message)
			}
			c.reader.mu.Lock()
			passed, handled := c.reader.notesPassed, c.reader.notesHandled
			c.reader.mu.Unlock()
			if passed != handled {
				t.Errorf("ordering bookkeeping: %d notifications passed, %d handled", passed, handled)
			}
			c.Answer(ev.Q, question.Outcome{Action: question.Decline})
		case Notice:
			notes = append(notes, ev.Text)
		case TurnEnded:
			if ev.Err != nil {
				t.Fatal(ev.Err)
			}
			if n := strings.Join(notes, "\n"); !strings.Contains(n, "without an id") {
				t.Errorf("no notice for the id-less requests: %q", notes)
			}
			return
		case MessageChunk:
			if i := strings.Index(ev.Text, "|"); i >= 0 {
				if got := ev.Text[i:]; got != `|-32601 -32601 {"action":"decline"}` {
					t.Errorf("agent got %s", got)
				}
			}
		}
	}
}

// Issue case 9: an answer whose id has the wrong JSON type, or an envelope
// nested past the decoder's depth, ends the call with a protocol error
// instead of hanging.
func TestMalformedResponsesFailTheCall(t *testing.T) {
	for _, agent := range []string{"wrong-id", "deep-envelope"} {
		t.Run(agent, func(t *testing.T) {
			c := start(t, agent, Config{})
			c.StartPrompt("go")
			end, _ := until[TurnEnded](t, c)
			if end.Err == nil || !strings.Contains(end.Err.Error(), "protocol error") {
				t.Errorf("turn ended with %q, %v", end.StopReason, end.Err)
			}
		})
	}
}

// Issue case 11 (and 10 in this layer): ids go back to the agent exactly
// as it sent them, and numbers in content are not rounded.
func TestIDsAndNumbersStayExact(t *testing.T) {
	echo := filepath.Join(t.TempDir(), "echo")
	c := start(t, "odd-ids", Config{Env: []string{"ACPCONN_ECHO=" + echo}})
	st, err := c.NewSession(t.Context())
	must(t, err)
	if len(st.Modes) != 1 || st.Modes[0].ID != oddID || st.Mode != oddID {
		t.Fatalf("modes %+v current %q", st.Modes, st.Mode)
	}
	if len(st.Options) != 1 || st.Options[0].ID != oddID || st.Options[0].Values[0].ID != oddID || st.Options[0].Current != oddID {
		t.Fatalf("options %+v", st.Options)
	}
	ctx := t.Context()
	must(t, c.SetMode(ctx, st.Modes[0].ID))
	if _, err := c.setConfigOption(ctx, st.Options[0], st.Options[0].Values[0].ID); err != nil {
		t.Fatal(err)
	}
	c.StartPrompt("go")
	for {
		ev := next(t, c)
		if tc, ok := ev.(ToolCall); ok && tc.ID != oddID {
			t.Errorf("tool call id %q", tc.ID)
		}
		if el, ok := ev.(question.Asked); ok {
			if el.Q.From.ToolCall != oddID {
				t.Errorf("scope tool call id %q", el.Q.From.ToolCall)
			}
			c.Answer(el.Q, question.Outcome{Action: question.Accept, Content: map[string]any{"n": json.Number("12345678901234567891")}})
		}
		if _, ok := ev.(TurnEnded); ok {
			break
		}
	}
	b, err := os.ReadFile(echo)
	must(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 {
		t.Fatalf("echo %q", lines)
	}
	var mode struct{ ModeID string }
	var opt struct{ ConfigID, Value string }
	must(t, json.Unmarshal([]byte(lines[0]), &mode))
	must(t, json.Unmarshal([]byte(lines[1]), &opt))
	if mode.ModeID != oddID || opt.ConfigID != oddID || opt.Value != oddID {
		t.Errorf("sent back %q %q %q", mode.ModeID, opt.ConfigID, opt.Value)
	}
	if !strings.Contains(lines[2], `"n":12345678901234567891`) {
		t.Errorf("content not exact: %s", lines[2])
	}
}
