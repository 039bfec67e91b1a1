package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// agentBlocks are the transcript's agent messages, in order.
func (d *driver) agentBlocks() []string {
	var blocks []string
	for _, it := range d.m.tr.items {
		if it.kind == kindAgent {
			blocks = append(blocks, it.body.String())
		}
	}
	return blocks
}

// A late update to a tool call that finished before the message began is
// no message boundary: codex-acp's code block stays one block, drawn as
// code (issue 35, item 7).
func TestLateToolUpdateKeepsMessage(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "codex-late")})
	d.connected()
	d.typeText("run it")
	d.key("enter")
	d.until("the turn's end", func() bool { return d.m.acp().turn == turnIdle && len(d.agentBlocks()) > 0 })
	if got := strings.Join(d.agentBlocks(), "|"); got != "Calling exec_command.|"+uitest.LateText {
		t.Fatalf("agent messages %q", got)
	}
	if s := d.screen(); strings.Contains(s, "```") || !strings.Contains(s, "ID: 72596d") {
		t.Errorf("the code block is not drawn as code:\n%s", s)
	}
}

// userTexts are the transcript's user messages, in order.
func (d *driver) userTexts() []string {
	var out []string
	for _, it := range d.m.tr.items {
		if it.kind == kindUser {
			out = append(out, it.text.String())
		}
	}
	return out
}

// qwen serve echoes each prompt back as a live user message: it is the
// prompt elicit sent and drew, not a second one; another client's prompt
// still shows (issue 35, item 9).
func TestPromptEchoDrawnOnce(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.ScriptConfig(t, "qwen-echo")})
	d.connected()
	for i, p := range []string{"hello", "hello", "others"} {
		d.typeText(p)
		d.key("enter")
		d.until("the reply", func() bool { return d.m.acp().turn == turnIdle && len(d.agentBlocks()) == i+1 })
	}
	want := "hello|hello|others|a prompt from another client"
	if got := strings.Join(d.userTexts(), "|"); got != want {
		t.Fatalf("user messages %q, want %q", got, want)
	}
}
