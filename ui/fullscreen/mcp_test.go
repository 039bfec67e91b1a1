package fullscreen

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/mcpconn"
)

// A tool's arguments are a form built from its inputSchema; the result's
// text lands in the transcript.
func TestRunToolWithArgumentsForm(t *testing.T) {
	d := newMCPDriver(t, Options{})
	d.pick("echo")
	d.key("enter")
	d.waitText("The arguments for Echo")
	d.typeText("hi")
	d.key("enter") // to times (default 1)
	d.key("backspace")
	d.typeText("3")
	d.key("enter") // review
	d.waitText("Review your answers")
	d.key("enter")
	d.waitText("hihihi")
	d.waitText("✓ done in")
}

// A question that arrives while the user is busy with the list docks and
// takes no key; Tab takes it up, and the answer goes back typed.
func TestElicitationDocksWhileTypingThenAnswers(t *testing.T) {
	d := newMCPDriver(t, Options{})
	d.pick("signup")
	d.key("enter") // no arguments: runs at once
	d.waitText("⚑ UI Test Server asks a form question · tab to answer")
	d.key("down") // still the list's
	if d.m.arb.Focused || !strings.Contains(d.screen(), "tab to answer") {
		t.Fatalf("the question took a key meant for the list:\n%s", d.screen())
	}
	d.key("tab")
	d.waitText("Tell us about you")
	d.clk.advance(500 * 1e6)
	d.typeText("Ada")
	for range 6 { // age, ratio, agree, color, tags, review
		d.key("enter")
	}
	d.waitText("Review your answers")
	d.key("enter")
	d.waitText(`got {"action":"accept","content":{"age":30,"agree":false,"color":"green","name":"Ada"}}`)
}

// A schema richer than a form gets the JSON editor; its text is checked
// against the schema before it is sent.
func TestNestedArgumentsUseTheJSONEditor(t *testing.T) {
	d := newMCPDriver(t, Options{})
	d.pick("nested-args")
	d.key("enter")
	d.waitText("Arguments for Nested arguments (JSON)")
	d.key("ctrl+s")
	d.waitText("✗")
	if d.m.mcp().call != nil {
		t.Fatal("arguments outside the schema were sent")
	}
	d.m.mcp().editor.ta.SetValue(`{"point":{"x":1,"y":2}}`)
	d.key("ctrl+s")
	d.waitText(`got {"point":{"x":1,"y":2}}`)
}

// Progress shows as a bar; esc cancels the call (the server is sent
// notifications/cancelled).
func TestProgressAndCancel(t *testing.T) {
	d := newMCPDriver(t, Options{})
	d.pick("slow")
	d.key("enter")
	d.waitText("%")
	if !strings.Contains(d.screen(), "█") && !strings.Contains(d.screen(), "░") {
		t.Errorf("no progress bar:\n%s", d.screen())
	}
	d.key("esc")
	d.waitText("cancelled Slow")
	if d.m.mcp().call != nil {
		t.Error("the call is still running")
	}
}

// needsURL runs needs-url, whose -32042 URL docks, and gives its consent
// screen the keys.
func (d *driver) needsURL() {
	d.t.Helper()
	d.pick("needs-url")
	d.key("enter")
	d.waitText("asks to open a URL · tab to answer")
	d.focus()
	d.waitText("Open a link?")
}

// The -32042 path: the URL is offered, opened only through the consent
// screen; once the flow is marked done the call is offered again.
func TestURLRequiredThenRetry(t *testing.T) {
	d := newMCPDriver(t, Options{})
	d.needsURL()
	d.key("right")
	d.key("enter")
	d.waitText("1 pending flow")
	if got := d.open.Opened(); len(got) != 1 || got[0] != "https://example.com/authorize" {
		t.Fatalf("opened %q", got)
	}
	d.key("ctrl+g")
	d.waitText("Pending URL flows")
	d.key("d")
	d.waitText("⚑ elicit asks to retry a call · tab to answer")
	d.focus()
	d.waitText("Retry the call?")
	d.key("enter")
	d.waitText("done after the prerequisite")
}

// With --auto-retry the call is made again at once, once.
func TestURLRequiredAutoRetry(t *testing.T) {
	d := newMCPDriver(t, Options{AutoRetry: true})
	d.needsURL()
	d.key("right")
	d.key("enter")
	d.waitText("1 pending flow")
	d.key("ctrl+g")
	d.key("d")
	d.waitText("done after the prerequisite")
}

// Results that are not text are said, not drawn.
func TestRichResult(t *testing.T) {
	d := newMCPDriver(t, Options{})
	d.pick("rich")
	d.key("enter")
	d.waitText("[an image: image/png")
	for _, want := range []string{"some text", "→ The report <file:///tmp/report.txt>", "structured content:", `"count": 3`} {
		if !strings.Contains(d.screen(), want) {
			t.Errorf("no %q:\n%s", want, d.screen())
		}
	}
}

// Every size draws within the terminal.
func TestFitsSmallTerminals(t *testing.T) {
	d := newMCPDriver(t, Options{})
	for _, sz := range [][2]int{{120, 40}, {80, 24}, {60, 16}, {40, 10}} {
		d.feed(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		lines := strings.Split(d.screen(), "\n")
		if len(lines) != sz[1] {
			t.Errorf("%dx%d: %d lines", sz[0], sz[1], len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > sz[0] {
				t.Errorf("%dx%d: a line of %d columns: %q", sz[0], sz[1], w, l)
			}
		}
	}
}

// A server that dies while its form is open: the form closes, what was
// typed is kept in the transcript, the server's last stderr lines show.
func TestServerDiesMidForm(t *testing.T) {
	d := newMCPDriver(t, Options{})
	d.pick("signup")
	d.key("enter")
	d.waitText("asks a form question · tab to answer")
	d.focus()
	d.waitText("Tell us about you")
	d.typeText("Grace")
	go d.m.mcp().conn.CallTool(context.Background(), mcpconn.Call{Name: "exit"})
	d.waitText("a question from the server was closed")
	for _, want := range []string{"Name: Grace", "the server exited (exit status 3)", "uitest server: exiting on request"} {
		d.waitText(want)
	}
	if d.m.queue.front() != nil {
		t.Error("the form is still up")
	}
}

// Typing the next call's arguments while a call runs: the question the
// running call asks docks and takes none of the keys; the next call waits
// its turn and then runs.
func TestTypingNextArgumentsWhileAQuestionArrives(t *testing.T) {
	d := newMCPDriver(t, Options{})
	d.pick("signup")
	d.key("enter")
	d.pick("echo")
	d.key("enter")
	d.waitText("The arguments for Echo")
	d.waitText("asks a form question · tab to answer")
	d.typeText("hello")
	if d.m.arb.Focused || d.m.mcp().args == nil || !strings.Contains(d.screen(), "hello") {
		t.Fatalf("the keys did not stay with the arguments:\n%s", d.screen())
	}
	for range 2 {
		d.key("enter") // times, review
	}
	d.key("enter") // send: it waits for signup
	d.waitText("Echo runs once Sign up is done")
	d.key("tab") // now the question
	d.waitText("Tell us about you")
	d.clk.advance(500 * 1e6)
	d.typeText("Ada")
	d.key("ctrl+x") // decline
	d.waitText("Discard what you typed and decline?")
	d.key("y")
	d.waitText(`got {"action":"decline"}`)
	d.waitText("hello")
}

// Letters typed at a URL consent that has the keys, beyond c and d, are
// typing: the consent docks at the first and takes none of the rest (the d
// in the prose does not decline).
func TestProseAtAFocusedURLConsentDocksIt(t *testing.T) {
	d := newMCPDriver(t, Options{})
	d.needsURL()
	d.typeText("wait and see")
	if d.m.arb.Focused {
		t.Fatalf("the consent kept the keys:\n%s", d.screen())
	}
	u, ok := d.m.queue.front().(*urlModal)
	if !ok || d.answered(u) {
		t.Fatalf("the consent was answered (%T)", d.m.queue.front())
	}
	d.waitText("tab to answer")
	if got := d.open.Opened(); len(got) != 0 {
		t.Errorf("opened %q", got)
	}
}
