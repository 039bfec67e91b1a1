package fullscreen

import (
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/focus"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// typeAheadProse is what a person types while questions come up: prose
// full of the keys that would answer a question that took them (o opened a
// URL, y and 1 granted, d declined, c copied; Enter and space press
// buttons and submit forms).
const typeAheadProse = "that is really annoying now\ntell me about the 1st item open yes y o 1\n d c ok\n"

// drain processes the messages already on their way, without waiting.
func (d *driver) drain() {
	for {
		select {
		case msg := <-d.msgs:
			d.feed(msg)
		default:
			return
		}
	}
}

// typeAhead types s one key every 100 ms of the fake clock ('\n' is an
// Enter press), handling what arrives in between, and returns what the
// prompt should hold afterwards (s without its Enters).
func (d *driver) typeAhead(s string) string {
	for _, r := range s {
		d.clk.advance(100 * time.Millisecond)
		if r == '\n' {
			d.key("enter")
		} else {
			d.typeText(string(r))
		}
		d.drain()
	}
	return strings.ReplaceAll(s, "\n", "")
}

// TestTypeAheadAnswersNothing types prose while each kind of question comes
// up (a form, URL consents among them a look-alike, permissions among them
// rm -rf ~, the agent-stopped dialog): every question docks and stays
// unanswered, nothing is opened or sent, no flow is pending, and the
// prompt holds every character typed. A one-second pause lets the front
// question take the keys; the next key, within the grace, is typing again.
func TestTypeAheadAnswersNothing(t *testing.T) {
	tests := []struct {
		prompt string
		n      int // questions or dialogs that come up
	}{
		{"/all", 3},
		{"/risky", 2},
		{"hello", 1},   // a plain turn's permission
		{"/exit 3", 1}, // the agent-stopped dialog
	}
	for _, tc := range tests {
		t.Run(tc.prompt, func(t *testing.T) {
			d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
			d.connected()
			d.ask(tc.prompt)
			want := d.typeAhead("so ") // keys while the questions are on their way
			d.until("the questions", func() bool { return len(d.m.queue.items) == tc.n })
			asked := append([]modal(nil), d.m.queue.items...)
			if d.m.arb.Focused {
				t.Fatalf("a question took the keys while the user typed:\n%s", d.screen())
			}
			d.waitText("tab to answer")
			want += d.typeAhead(typeAheadProse)

			// A pause: the front question takes the keys. The next key
			// comes within the grace: it is typing, the question docks again.
			d.showFront()
			if !d.m.arb.Focused {
				t.Fatal("the front question did not take the keys after a second's pause")
			}
			want += d.typeAhead("y\nyes 1\n" + typeAheadProse)

			for i, md := range asked {
				if d.answered(md) || (i < len(d.m.queue.items) && d.m.queue.items[i] != md) {
					t.Errorf("question %d (%T) was answered or left the queue", i, md)
				}
			}
			if len(d.m.queue.items) != tc.n {
				t.Errorf("%d questions wait, want %d", len(d.m.queue.items), tc.n)
			}
			if got := d.open.Opened(); len(got) != 0 {
				t.Errorf("opened %q", got)
			}
			if flows := d.m.core.Flows(); len(flows) != 0 {
				t.Errorf("pending flows %v", d.flowIDs())
			}
			if got := d.m.acp().input.Value(); got != want {
				t.Errorf("the prompt holds\n%q\nwant\n%q", got, want)
			}
			if n := d.userItems(); n != 1 {
				t.Errorf("%d prompts sent, want only %q", n, tc.prompt)
			}
			if d.quit || d.m.quitting || (tc.prompt == "/exit 3" && d.m.acp().connState != connGone) {
				t.Errorf("typing quit (%v) or restarted the agent (%v)", d.quit || d.m.quitting, d.m.acp().connState)
			}
			d.wantOnScreen("a question is waiting")
		})
	}
}

// userItems counts the prompts in the transcript.
func (d *driver) userItems() int {
	n := 0
	for _, it := range d.m.tr.items {
		if it.kind == kindUser {
			n++
		}
	}
	return n
}

// TestTypeAheadThenAnswer shows that what docked is answered only on
// purpose: after prose typed over /risky, Tab takes the front question and
// Esc cancels each; the agent hears cancel, nothing is granted or opened,
// and the prompt still holds the prose.
func TestTypeAheadThenAnswer(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.ask("/risky")
	want := d.typeAhead("so ")
	d.until("the questions", func() bool { return len(d.m.queue.items) == 2 })
	want += d.typeAhead(typeAheadProse)
	var outcomes []question.Outcome
	for len(d.m.queue.items) > 0 {
		front := d.m.queue.front()
		d.key("tab")
		if !d.m.arb.Focused {
			t.Fatal("tab did not give the question the keys")
		}
		d.key("esc")
		d.until("the question closed", func() bool { return d.m.queue.front() != front })
		switch md := front.(type) {
		case *permModal:
			outcomes = append(outcomes, md.out)
		case *urlModal:
			if act, _ := md.consent.Done(); act.Action != question.Cancel {
				t.Errorf("the URL consent ended with %q", act.Action)
			}
			outcomes = append(outcomes, question.Outcome{Action: question.Cancel})
		}
	}
	for _, o := range outcomes {
		if o.Action != question.Cancel {
			t.Errorf("a question was answered %+v", o)
		}
	}
	d.idle()
	d.waitText("the permission request was cancelled")
	d.wantOnScreen(`"action": "cancel"`)
	if got := d.open.Opened(); len(got) != 0 {
		t.Errorf("opened %q", got)
	}
	if got := d.m.acp().input.Value(); got != want {
		t.Errorf("the prompt holds %q, want %q", got, want)
	}
}

// TestProseAtAFocusedPermission types prose at a permission that has had
// the keys for a while (the user read it, then typed): the letters mean
// nothing to it, so the first docks it and all of them reach the prompt;
// nothing is answered or sent, and Tab brings the permission back. An
// option's number is still the permission's.
func TestProseAtAFocusedPermission(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.ask("hello")
	d.until("the permission", func() bool { return len(d.m.queue.items) == 1 })
	perm, ok := d.m.queue.front().(*permModal)
	if !ok {
		t.Fatalf("the front question is a %T", d.m.queue.front())
	}
	d.showFront()
	d.clk.advance(focus.Grace + time.Second)
	d.key("2")
	if perm.cursor != 1 || !d.m.arb.Focused {
		t.Fatalf("2 did not select the second option (cursor %d, focused %v)", perm.cursor, d.m.arb.Focused)
	}
	d.clk.advance(time.Second)
	want := d.typeAhead("wait, use the other file\nplease")
	if d.m.arb.Focused || d.answered(perm) || d.m.queue.front() != perm {
		t.Fatalf("prose went to the permission (focused %v, answered %v)", d.m.arb.Focused, d.answered(perm))
	}
	if got := d.m.acp().input.Value(); got != want {
		t.Errorf("the prompt holds %q, want %q", got, want)
	}
	if n := d.userItems(); n != 1 {
		t.Errorf("%d prompts sent, want only the first", n)
	}
	d.key("tab")
	if !d.m.arb.Focused || perm.cursor != 1 {
		t.Errorf("tab did not bring the permission back as it was (focused %v, cursor %d)", d.m.arb.Focused, perm.cursor)
	}
}

// TestProseAtAFocusedURLConsent: prose typed at a URL consent that has had
// the keys for a while docks it at its first letter, so the d and c in the
// prose neither decline nor copy, and all of it reaches the prompt.
func TestProseAtAFocusedURLConsent(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.ask("/url")
	d.until("the URL consent", func() bool { return len(d.m.queue.items) == 1 })
	u, ok := d.m.queue.front().(*urlModal)
	if !ok {
		t.Fatalf("the front question is a %T", d.m.queue.front())
	}
	d.showFront()
	d.clk.advance(focus.Grace + time.Second)
	want := d.typeAhead("wait, do not decline it\ncopy")
	if d.m.arb.Focused || d.answered(u) || d.m.queue.front() != u {
		t.Fatalf("prose went to the URL consent (focused %v, answered %v)", d.m.arb.Focused, d.answered(u))
	}
	if got := d.m.acp().input.Value(); got != want {
		t.Errorf("the prompt holds %q, want %q", got, want)
	}
	if got := d.open.Opened(); len(got) != 0 {
		t.Errorf("opened %q", got)
	}
}

// TestProseAtAFocusedDialog: elicit's own dialogs take letters only as
// their choices' keys; prose typed at the agent-stopped dialog after it had
// the keys docks it and lands in the prompt, and the agent is not
// restarted nor elicit quit by the Enter in it.
func TestProseAtAFocusedDialog(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.ask("/exit 3")
	d.until("the dialog", func() bool { return len(d.m.queue.items) == 1 })
	ex, ok := d.m.queue.front().(*exitModal)
	if !ok {
		t.Fatalf("the front question is a %T", d.m.queue.front())
	}
	d.showFront()
	d.clk.advance(focus.Grace + time.Second)
	d.key("down")
	want := d.typeAhead("what happened\nquit")
	if d.m.arb.Focused || d.answered(ex) || d.quit || d.m.quitting {
		t.Fatalf("prose went to the dialog (focused %v, answered %v, quit %v)", d.m.arb.Focused, d.answered(ex), d.quit || d.m.quitting)
	}
	if got := d.m.acp().input.Value(); got != want {
		t.Errorf("the prompt holds %q, want %q", got, want)
	}
}
