package fullscreen

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/inbox"
	"github.com/elicit-dev/elicit/ui/internal/uitest"
	"github.com/elicit-dev/elicit/ui/serve"
)

// `elicit inbox`'s full screen (NewInbox) over real sessions: full screens
// of the demo agent, each published on its own socket in a private
// XDG_RUNTIME_DIR as every session is, and the inbox watching them, all
// driven in one world (host_serve_test.go).

// sessionScreen is a full screen of the demo agent, published to the
// inbox as running in dir, and its host.
func sessionScreen(t *testing.T, w world, dir string) (*program, *clock, *serve.Served) {
	sv, err := serve.Local(serve.Options{Title: "demo", Inbox: &ahp.SessionMeta{Agent: "demo", Cwd: dir, Front: "session"}})
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	fs := New(Options{Agent: uitest.DemoConfig(t), Share: sv.Share, Now: clk.now, NoColor: true, Opener: &uitest.Recorder{}})
	t.Cleanup(func() { fs.Close(); sv.Close() })
	p := newProgram(t, w, "the session in "+filepath.Base(dir), fs)
	p.waitText("Demo agent")
	return p, clk, sv
}

// inboxScreen is the inbox's full screen over the user's sessions.
func inboxScreen(t *testing.T, w world) (*program, *Model) {
	wt, err := inbox.Watch(inbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	m := NewInbox(wt, Options{Now: clk.now, NoColor: true, Opener: &uitest.Recorder{}})
	t.Cleanup(m.Close)
	return newProgram(t, w, "the inbox", m), m
}

// asked is a session (in one) that asked a question, and the inbox that
// lists it.
type asked struct {
	one, in *program
	clk     *clock
	sv      *serve.Served
	im      *Model
}

// inboxAsked has a session ask prompt's question (what: "a form
// question"), then opens the inbox, once it lists the question.
func inboxAsked(t *testing.T, prompt, what string) asked {
	w := make(world, 4096)
	one, clk, sv := sessionScreen(t, w, filepath.Join(uitest.RuntimeDir(t), "one"))
	one.askDocked(prompt, what)
	in, im := inboxScreen(t, w)
	in.waitText("1 question waiting")
	return asked{one: one, in: in, clk: clk, sv: sv, im: im}
}

// ask has the session ask prompt's question, which waits docked there.
func (p *program) askDocked(prompt, what string) {
	p.t.Helper()
	p.typeText(prompt)
	p.press("enter")
	p.waitText("asks " + what)
}

// frontOf is the modal in front of m, nil when none is.
func frontOf(p *program) modal { return p.m.(*Model).queue.front() }

// The inbox lists the questions of two sessions with who asks and where;
// one opened with Enter is the session's form, whose drafts reach the
// session as they are typed; submitted, the session says it was answered
// in the inbox, its agent gets the content, and the question leaves the
// list while the other session's stays.
func TestInboxAnswersAFormOfOneOfTwoSessions(t *testing.T) {
	base := uitest.RuntimeDir(t)
	w := make(world, 4096)
	one, _, _ := sessionScreen(t, w, filepath.Join(base, "one"))
	two, _, _ := sessionScreen(t, w, filepath.Join(base, "two"))
	one.askDocked("/form defaults", "a form question")
	in, _ := inboxScreen(t, w)
	in.waitText("demo · " + filepath.Join(base, "one"))
	two.askDocked("/form defaults", "a form question")
	in.waitText("demo · " + filepath.Join(base, "two"))
	in.waitText("2 questions waiting · 2 sessions")
	if s := in.screen(); !strings.Contains(s, "form") || !strings.Contains(s, "Profile") || !strings.Contains(s, "just now") {
		t.Fatalf("a row lacks its kind, message or age:\n%s", s)
	}

	in.press("enter") // the oldest: session one's
	in.waitText("Check your profile")
	in.press("ctrl+u")
	in.typeText("From the inbox")
	in.press("tab") // leaving the field sends the draft
	one.until("the inbox's draft in the session's form", func() bool {
		f, ok := frontOf(one).(*formModal)
		return ok && f.form.Draft()["name"] == "From the inbox"
	})
	in.press("enter", "enter", "enter", "enter")
	in.waitText("Review your answers")
	in.press("enter")
	one.waitText("answered in the inbox: accept")
	one.waitText(`"name": "From the inbox"`)
	in.waitText("you answered form")
	in.waitText("1 question waiting")
	if s := in.screen(); strings.Contains(s, filepath.Join(base, "one")+"\n") || !strings.Contains(s, filepath.Join(base, "two")) {
		t.Fatalf("the list after the answer:\n%s", s)
	}
	if _, ok := frontOf(two).(*formModal); !ok {
		t.Fatal("the other session's form closed")
	}
}

// A permission shows in the inbox with its tool call's title; opened, it
// is the session's permission dialog, diff included, with the agent's
// options, the reject option selected first; Enter picks it, and the
// session's agent gets that option.
func TestInboxAnswersAPermission(t *testing.T) {
	a := inboxAsked(t, "/edit", "a permission question")
	one, in := a.one, a.in
	in.waitText("permission")
	in.waitText("Edit demo/settings.go")
	in.press("enter")
	in.until("the permission dialog", func() bool { _, ok := frontOf(in).(*permModal); return ok })
	for _, want := range []string{"Permission", "4096", "Allow", "Reject"} {
		if !strings.Contains(in.screen(), want) {
			t.Fatalf("the inbox's permission lacks %q:\n%s", want, in.screen())
		}
	}
	in.press("enter")
	one.waitText("answered in the inbox: accept")
	one.waitText("you rejected the edit")
	in.waitText("no question waits")
}

// A question answered at its own terminal leaves the inbox at once, and
// one whose session ends leaves it too, each saying why.
func TestInboxLosesWhatIsAnsweredOrEndsElsewhere(t *testing.T) {
	base := uitest.RuntimeDir(t)
	w := make(world, 4096)
	one, clk, _ := sessionScreen(t, w, filepath.Join(base, "one"))
	two, _, sv2 := sessionScreen(t, w, filepath.Join(base, "two"))
	one.askDocked("/form defaults", "a form question")
	two.askDocked("/form defaults", "a form question")
	in, _ := inboxScreen(t, w)
	in.waitText("2 questions waiting")
	focusForm(one, clk)
	one.press("esc") // nothing typed: cancelled at once
	in.waitText("left the inbox: answered elsewhere: cancel")
	in.waitText("1 question waiting · 2 sessions")
	sv2.Close()
	in.waitText("no question waits")
	in.waitText("1 session")
}

// Prose typed at the inbox while a question arrives is not an answer: the
// letters go nowhere, an Enter within the typing opens the question docked
// (the type-ahead rule), and what is typed next stays out of it; Tab then
// gives it the keys.
func TestInboxProseIsNotAnAnswer(t *testing.T) {
	base := uitest.RuntimeDir(t)
	w := make(world, 4096)
	one, _, sv := sessionScreen(t, w, filepath.Join(base, "one"))
	in, im := inboxScreen(t, w)
	in.waitText("no question waits")
	in.typeText("note to self: ")
	one.askDocked("/form defaults", "a form question")
	in.waitText("Profile")
	in.typeText("ship it")
	in.press("enter")
	in.typeText("and more")
	f, ok := im.queue.front().(*formModal)
	if !ok || im.arb.Focused {
		t.Fatalf("the question took the keys while the user typed (front %T, focused %v):\n%s", im.queue.front(), im.arb.Focused, in.screen())
	}
	if got := f.form.Draft()["name"]; got != "John Doe" {
		t.Fatalf("typing went into the form: name is %q", got)
	}
	if open := sv.Host.OpenCount(); open != 1 {
		t.Fatalf("the session's question was answered: %d open", open)
	}
	in.waitText("tab to answer")
	in.press("tab")
	in.waitText("Check your profile")
	if !im.arb.Focused {
		t.Fatal("tab did not give the question the keys")
	}
}

// Ctrl+C puts an open question back in the list, waiting, with what was
// typed in it; opened again, it holds it still. At the list, Ctrl+C quits.
func TestInboxPutsAQuestionBack(t *testing.T) {
	a := inboxAsked(t, "/form defaults", "a form question")
	in, im, sv := a.in, a.im, a.sv
	in.press("enter")
	in.waitText("Check your profile")
	in.press("ctrl+u")
	in.typeText("Half typed")
	in.press("ctrl+c")
	in.waitText("1 question waiting")
	if im.queue.front() != nil || sv.Host.OpenCount() != 1 {
		t.Fatalf("ctrl+c did not put the question back:\n%s", in.screen())
	}
	in.press("enter")
	in.waitText("Half typed")
	in.press("ctrl+c", "ctrl+c")
	if !im.quitting {
		t.Fatal("ctrl+c at the list did not quit")
	}
}

// Drafts go both ways: what the session's own terminal types reaches the
// form open in the inbox.
func TestInboxFormTakesTheSessionsDrafts(t *testing.T) {
	a := inboxAsked(t, "/form defaults", "a form question")
	one, in := a.one, a.in
	in.press("enter")
	in.waitText("Check your profile")
	focusForm(one, a.clk)
	one.press("tab") // to Age
	one.press("ctrl+u")
	one.typeText("41")
	one.press("tab") // leaving Age sends it
	in.until("the session's draft in the inbox's form", func() bool {
		f, ok := frontOf(in).(*formModal)
		return ok && f.form.Draft()["age"] == json.Number("41") // a number field holds its JSON text
	})
}
