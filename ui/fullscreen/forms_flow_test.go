package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// frontForm waits until a form is the front modal and its grace period is
// over, and returns it.
func (d *driver) frontForm() *formModal {
	d.t.Helper()
	var f *formModal
	d.until("a form in front", func() bool {
		var ok bool
		f, ok = d.m.queue.front().(*formModal)
		return ok
	})
	d.focus()
	return f
}

// keys presses each named key in turn.
func (d *driver) keys(names ...string) {
	for _, k := range names {
		d.key(k)
	}
}

// ask types a prompt and sends it.
func (d *driver) ask(prompt string) {
	d.typeText(prompt)
	d.key("enter")
}

// idle waits for the turn to end.
func (d *driver) idle() {
	d.t.Helper()
	d.until("the end of the turn", func() bool { return d.m.acp().turn == turnIdle })
}

// wantOnScreen reports every text missing from the screen.
func (d *driver) wantOnScreen(texts ...string) {
	d.t.Helper()
	s := d.screen()
	for _, x := range texts {
		if !strings.Contains(s, x) {
			d.t.Errorf("%q not on screen:\n%s", x, s)
		}
	}
}

// TestFormFilledThroughTheModel edits the defaults form with keys only: an
// integer field refuses 1.5 and a value out of range, a select and a
// boolean change, the review lists the answers, and the agent's reply
// shows the typed content it received.
func TestFormFilledThroughTheModel(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.ask("/form defaults")
	f := d.frontForm()
	d.waitText("Check your profile")

	d.key("tab") // name -> age
	d.keys("backspace", "backspace")
	d.typeText("1.5")
	d.key("tab")
	d.waitText("not a whole number")
	d.key("shift+tab")
	d.keys("backspace", "backspace", "backspace")
	d.typeText("200")
	d.key("tab")
	d.waitText("above maximum 150")
	d.keys("tab", "tab", "enter") // enter on the last field: back to the error
	if strings.Contains(d.screen(), "Review your answers") {
		t.Fatalf("the review opened with an invalid age:\n%s", d.screen())
	}
	d.wantOnScreen("1 field needs attention")
	d.keys("backspace", "backspace", "backspace")
	d.typeText("42")
	d.keys("tab", "tab", "down") // score, status: active -> inactive
	d.keys("tab", "right")       // verified: yes -> no
	d.key("enter")
	d.waitText("Review your answers")
	d.wantOnScreen("Age: 42", `Status: "inactive"`, "Verified: false", `Name: "John Doe"`)
	if d.m.queue.front() != f {
		t.Fatal("the form left the queue before it was submitted")
	}
	d.key("enter")
	d.until("the form answered", func() bool { return d.m.queue.front() == nil })
	d.idle()
	d.wantOnScreen(`"action": "accept"`, `"age": 42,`, `"name": "John Doe",`, `"score": 95.5,`, `"status": "inactive",`, `"verified": false`)
}

// TestFormFirstFieldTakesTyping types into the form's first field, which
// has the focus when the form opens, with no key to move there first.
func TestFormFirstFieldTakesTyping(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.ask("/form strings")
	f := d.frontForm()
	d.typeText("ada@example.com")
	if got := f.form.Draft()["email"]; got != "ada@example.com" {
		t.Fatalf("the first field holds %v after typing into it; screen:\n%s", got, d.screen())
	}
}

// TestFormOutcomes answers forms with each way out and checks what the
// agent reports it received.
func TestFormOutcomes(t *testing.T) {
	tests := []struct {
		name   string
		form   string
		keys   []string
		asked  bool     // the form asks before it discards
		screen []string // in the agent's reply or a notice
	}{
		{name: "accept as is", form: "defaults", keys: []string{"enter", "enter", "enter", "enter", "enter", "enter"},
			screen: []string{`"action": "accept"`, `"age": 30,`, `"score": 95.5,`, `"verified": true`}},
		{name: "ctrl+d declines", form: "confirm", keys: []string{"ctrl+d"},
			screen: []string{`"action": "decline"`, "Not deleted: you chose decline"}},
		{name: "esc on an untouched form cancels at once", form: "enums", keys: []string{"esc"},
			screen: []string{`"action": "cancel"`}},
		{name: "esc after typing asks, n keeps the form", form: "numbers", keys: []string{"tab", "4", "esc", "n"},
			asked: true},
		{name: "esc after typing asks, y cancels and shows the draft", form: "numbers", keys: []string{"tab", "4", "esc", "y"},
			asked: true, screen: []string{`"action": "cancel"`, "cancelled form", "what you had entered:", "Rating: 4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
			d.connected()
			d.ask("/form " + tc.form)
			f := d.frontForm()
			asked := false
			for _, k := range tc.keys {
				d.key(k)
				asked = asked || strings.Contains(d.screen(), "Discard what you typed and cancel?")
			}
			if asked != tc.asked {
				t.Errorf("asked before discarding: %v, want %v", asked, tc.asked)
			}
			if tc.screen == nil {
				if d.m.queue.front() != f {
					t.Fatalf("the form closed:\n%s", d.screen())
				}
				return
			}
			d.idle()
			d.wantOnScreen(tc.screen...)
		})
	}
}

// TestTurnCancelClosesFormKeepingDraft cancels the turn (ctrl+c) while a
// form with typed answers is open: the form closes, the agent hears
// cancel, and the transcript shows what the user had typed.
func TestTurnCancelClosesFormKeepingDraft(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.ask("/form numbers")
	d.frontForm()
	d.key("tab")
	d.typeText("4.5")
	d.key("ctrl+c")
	d.until("the form closed", func() bool { return d.m.queue.front() == nil })
	d.idle()
	d.waitText("turn cancelled")
	d.wantOnScreen("a question from the agent was closed: the turn was cancelled", "what you had entered:", "Rating: 4.5")
}

// TestFormScopedToToolCallNamesIt asks the tool-call scoped confirmation:
// the header names the tool call by its title (the agent sent the
// tool_call before the request), not by its id.
func TestFormScopedToToolCallNamesIt(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.ask("/form confirm")
	f := d.frontForm()
	id := f.q.From.ToolCall
	if id == "" {
		t.Fatal("the confirmation is not scoped to a tool call")
	}
	// The tool call may reach the model after the request (they travel
	// separately); once it has, the header must use its title.
	d.until("the tool call in the transcript", func() bool {
		it := d.m.tr.tools[id]
		return it != nil && it.tool.Title != ""
	})
	d.wantOnScreen("Delete the 42 files", "tool call: Delete ./build")
}
