package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// Ctrl+R lists the agent's sessions; picking one loads it and its history
// renders as live history would; a new messageId starts a new block;
// usage, cost and title reach the status bar; stray stdout is shown.
func TestSessionPickerLoadsAndReplays(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "sessions")})
	d.connected()
	d.key("ctrl+r")
	d.waitText("fix the parser")
	d.waitText("write docs")
	d.key("2") // the newest past session
	d.until("the loaded session", func() bool { return d.m.acp().connState == connReady && d.m.acp().session.ID == "s-old" })
	d.waitText("because of the comma")
	d.waitText("why does it fail")
	d.waitText("fix the parser ·")
	d.typeText("go on")
	d.key("enter")
	d.waitText("second message")
	var blocks []string
	for _, it := range d.m.tr.items {
		if it.kind == kindAgent {
			blocks = append(blocks, it.body.String())
		}
	}
	if strings.Join(blocks, "|") != "because of the comma|first message|second message" {
		t.Errorf("agent blocks %q", blocks)
	}
	d.waitText("13k/1M ctx · 0.39 USD")
	d.waitText("agent output: Please visit https://example.com/auth")
}

// --resume with no id takes up the most recent session, with its replay.
func TestResumeFlagTakesTheMostRecent(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "sessions"), Resume: true})
	d.connected()
	if d.m.acp().session.ID != "s-old" {
		t.Fatalf("session %q", d.m.acp().session.ID)
	}
	d.waitText("because of the comma")
	d.waitText("resumed session s-old")
	// The line that says so heads the history the load replayed (issue 35,
	// item 11).
	var kinds []string
	for _, it := range d.m.tr.items {
		switch s := it.text.String(); {
		case it.kind == kindInfo && strings.Contains(s, "resumed session s-old"):
			kinds = append(kinds, "resumed")
		case it.kind == kindUser:
			kinds = append(kinds, s)
		case it.kind == kindAgent:
			kinds = append(kinds, it.body.String())
		}
	}
	if got := strings.Join(kinds, "|"); got != "resumed|why does it fail|because of the comma" {
		t.Errorf("transcript %q", got)
	}
}

// One mode and one model, whichever way the agent sends them: Ctrl+O
// lists each choice once, with descriptions; Shift+Tab goes through the
// option (the agent exits if set_mode is used); --model sets the model.
func TestModeAndModelDeduplicated(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "settings"), Model: "model two"})
	d.connected()
	d.until("the model flag", func() bool { return d.m.acp().session.Model == "m2" })
	d.waitText("mode Ask · model Model Two")
	d.key("ctrl+o")
	d.waitText("Session settings")
	scr := d.screen()
	if n := strings.Count(scr, "mode Ask"); n != 2 || strings.Contains(scr, "Mode: Ask") {
		t.Errorf("mode Ask listed more than once (and in the status bar):\n%s", scr)
	}
	for _, want := range []string{"mode Ask  ← current — asks before edits", "model Model Two  ← current — the big one", "Effort: High"} {
		if !strings.Contains(scr, want) {
			t.Errorf("settings lack %q:\n%s", want, scr)
		}
	}
	d.key("esc")
	d.key("shift+tab")
	d.until("the mode", func() bool { s, _ := d.m.acp().session.Selector("mode"); return s.Current == "code" })
	d.waitText("mode Code")
	d.typeText("which")
	d.key("enter")
	d.waitText("mode=code model=m2")
}

// The completion list shows every matching command with its description
// and hint, scrolls, and stays for multi-word names.
func TestSlashCompletionList(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "settings")})
	d.connected()
	d.until("the commands", func() bool { return len(d.m.acp().commands) == 11 })
	d.typeText("/")
	d.waitText("/cmd0  command number 0")
	d.waitText("1–6 of 11")
	for i := 0; i < 7; i++ {
		d.key("down")
	}
	d.waitText("/cmd7  command number 7")
	if strings.Contains(d.screen(), "/cmd0") {
		t.Errorf("the list did not scroll:\n%s", d.screen())
	}
	d.key("tab")
	if got := d.m.acp().input.Value(); got != "/cmd7 " {
		t.Fatalf("completed %q", got)
	}
	d.m.acp().input.SetValue("")
	d.typeText("/memory ")
	d.waitText("/memory show [section]  show the memory")
	d.waitText("/memory add <text>")
	d.typeText("show ")
	d.waitText("/memory show [section] — show the memory")
}

// Ctrl+O on an agent with no settings shows only the pause (the crash the
// lead fixed).
func TestSettingsWithNoneOffered(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "bare")})
	d.connected()
	d.key("ctrl+o")
	d.waitText("pause questions from this agent")
	d.key("down")
	d.key("enter")
	if d.m.queue.front() != nil {
		t.Fatal("dialog still open")
	}
}

// A question the agent asks while it handles session/new shows at once,
// over the start-up screen, and its answer lets the session start.
func TestSetupQuestionDuringSessionNew(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "setup")})
	d.until("the setup form", func() bool { _, ok := d.m.queue.front().(*formModal); return ok })
	if d.m.acp().connState != connStarting {
		t.Fatalf("state %v", d.m.acp().connState)
	}
	d.waitText("Which workspace?")
	d.focus()
	d.typeText("blue")
	d.key("enter") // the field
	d.waitText("Review your answers")
	d.key("enter") // the review
	d.until("the session", func() bool { return d.m.acp().connState == connReady })
	if d.m.acp().session.ID != "ws-blue" {
		t.Fatalf("session %q", d.m.acp().session.ID)
	}
}
