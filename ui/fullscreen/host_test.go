package fullscreen

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/ahp"
	qn "github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/ui/attach"
	"github.com/elicit-dev/elicit/urlconsent"
)

var twoFields = ahp.Request{ID: "r", Message: "Who are you?", Questions: []ahp.Question{
	{ID: "name", Kind: ahp.KindText, Title: "Name", Message: "Your name", Required: true},
	{ID: "city", Kind: ahp.KindText, Title: "City", Message: "Where"},
}}

func TestDraftsGoOutAsTheUserMoves(t *testing.T) {
	h, url := host(t)
	a := newHostScreen(t, url, "alice", Options{})
	h.Request(twoFields)
	a.until("the form", a.hasForm)
	a.typeText("Ada")
	a.keys("tab") // leaving the field sends it at once
	waitHost(t, h, "the name draft", func() bool { return hostAnswer(h, "r", "name") == "Ada" })
	a.typeText("Par")
	a.pause() // a typing pause sends the field being typed in
	waitHost(t, h, "the city draft", func() bool { return hostAnswer(h, "r", "city") == "Par" })
}

func TestTypingUserNotClobbered(t *testing.T) {
	h, url := host(t)
	a := newHostScreen(t, url, "alice", Options{})
	b := client(t, url, "bob")
	h.Request(twoFields)
	a.until("the form", a.hasForm)
	a.typeText("Ad")
	b.Dispatch(ahp.InputAnswerChanged{RequestID: "r", QuestionID: "name", Answer: &ahp.Answer{State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueText, Text: "Bob's"}}})
	b.Dispatch(ahp.InputAnswerChanged{RequestID: "r", QuestionID: "city", Answer: &ahp.Answer{State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueText, Text: "Oslo"}}})
	a.until("bob's drafts", func() bool { return a.form().form.Value("city") == "Oslo" })
	if got := a.form().form.Value("name"); got != "Ad" {
		t.Fatalf("the field being typed in became %q", got)
	}
	if txt := a.screen(); !strings.Contains(txt, `bob changed "Name" while you edit it`) || !strings.Contains(txt, "ctrl+t takes theirs") {
		t.Fatalf("no notice:\n%s", txt)
	}
	a.keys("ctrl+t")
	if got := a.form().form.Value("name"); got != "Bob's" {
		t.Fatalf("ctrl+t gave %q", got)
	}
}

func TestCompletionElsewhereClosesTheForm(t *testing.T) {
	h, url := host(t)
	a := newHostScreen(t, url, "alice", Options{})
	b := client(t, url, "bob")
	h.Request(twoFields)
	a.until("the form", a.hasForm)
	a.typeText("unsaved")
	b.Dispatch(ahp.InputCompleted{RequestID: "r", Response: qn.Accept, Answers: map[string]ahp.Answer{
		"name": {State: ahp.Submitted, Value: &ahp.Value{Kind: ahp.ValueText, Text: "Bob"}}}})
	a.until("the form closes", func() bool { return a.m.queue.front() == nil })
	txt := a.screen()
	if !strings.Contains(txt, "answered elsewhere: accept (by bob)") || !strings.Contains(txt, "Name: unsaved") {
		t.Fatalf("screen:\n%s", txt)
	}
}

func TestRequiredSkippedRefusedLocally(t *testing.T) {
	h, url := host(t)
	a := newHostScreen(t, url, "alice", Options{})
	h.Request(twoFields)
	a.until("the form", a.hasForm)
	a.keys("ctrl+s") // skip the required name
	waitHost(t, h, "the skip", func() bool {
		in := h.Inputs()
		return in.Open("r").Request.Answers["name"].State == ahp.Skipped
	})
	a.keys("tab", "enter") // to the review: refused, a field needs attention
	if _, done := a.form().form.Done(); done || a.m.src.(*hostPanel).src.Sending() {
		t.Fatal("the form was sent with a required question skipped")
	}
	if !strings.Contains(a.screen(), "needs attention") {
		t.Fatalf("no local refusal:\n%s", a.screen())
	}
}

func TestAcceptSendsFullFinalAnswers(t *testing.T) {
	h, url := host(t)
	a := newHostScreen(t, url, "alice", Options{})
	h.Request(twoFields)
	a.until("the form", a.hasForm)
	a.typeText("Ada")
	a.keys("tab")
	a.typeText("Rome")
	a.keys("enter", "enter") // review, then send
	c := completion(t, h)
	if c.Response != qn.Accept || c.Request.Answers["city"].State != ahp.Submitted || c.Request.Answers["city"].Value.Text != "Rome" {
		t.Fatalf("completion %+v", c)
	}
	a.until("the echo", func() bool { return !a.m.src.(*hostPanel).src.Sending() && a.m.queue.front() == nil })
	if !strings.Contains(a.screen(), `you answered form "Who are you?": Name "Ada" · City "Rome"`) {
		t.Fatalf("screen:\n%s", a.screen())
	}
}

func TestTurnEndClosesTheForm(t *testing.T) {
	h, url := host(t)
	a := newHostScreen(t, url, "alice", Options{})
	h.Request(twoFields)
	a.until("the form", a.hasForm)
	h.EndTurn(ahp.TurnCancelled)
	a.until("the form closes", func() bool { return a.m.queue.front() == nil })
	if !strings.Contains(a.screen(), "the turn ended") {
		t.Fatalf("screen:\n%s", a.screen())
	}
}

func TestURLOnlyRequestShowsConsent(t *testing.T) {
	h, url := host(t)
	a := newHostScreen(t, url, "alice", Options{})
	h.Request(ahp.Request{ID: "u", Message: "Sign in", URL: "https://xn--80ak6aa92e.com/login"})
	a.until("the consent screen", func() bool { _, ok := a.m.queue.front().(*urlModal); return ok })
	if txt := a.screen(); !strings.Contains(txt, "xn--80ak6aa92e.com") {
		t.Fatalf("screen:\n%s", txt)
	}
	a.keys("d") // decline
	if c := completion(t, h); c.Response != qn.Decline {
		t.Fatalf("completion %+v", c)
	}
}

// A request the screen cannot show (here two questions with one id) is
// never shown to the person, so it is cancelled, not declined: nobody
// said no to it.
func TestUnshowableRequestCancelled(t *testing.T) {
	h, url := host(t)
	a := newHostScreen(t, url, "alice", Options{})
	h.Request(ahp.Request{ID: "d", Questions: []ahp.Question{{ID: "a", Kind: ahp.KindText, Message: "x"}, {ID: "a", Kind: ahp.KindText, Message: "y"}}})
	a.until("the note", func() bool { return strings.Contains(a.screen(), "cannot show") })
	if c := completion(t, h); c.Response != qn.Cancel {
		t.Fatalf("completion %+v", c)
	}
}

// Hostile text from a host (escapes, OSC links, bidi) is made harmless in
// every part of the screen: message, titles, option labels, notes.
func TestHostileTextSanitized(t *testing.T) {
	h, url := host(t)
	a := newHostScreen(t, url, "alice", Options{})
	evil := "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07\x1b[2J\u202eabc"
	h.Request(ahp.Request{ID: "r", Message: "msg " + evil, Questions: []ahp.Question{
		{ID: "pick", Kind: ahp.KindSingleSelect, Title: "title " + evil, Message: evil, Required: true,
			Options: []ahp.Option{{ID: "x", Label: "label " + evil}, {ID: "y", Label: "ok"}}},
		{ID: "odd" + evil, Kind: "kind" + evil, Message: "?"},
	}})
	a.until("the form", a.hasForm)
	raw := a.m.View().Content
	for _, bad := range []string{"\x1b]8", "\x1b[2J", "\u202e", "\x07"} {
		if strings.Contains(raw, bad) {
			t.Fatalf("%q reached the screen:\n%q", bad, raw)
		}
	}
	if !strings.Contains(ansi.Strip(raw), "label") || !strings.Contains(ansi.Strip(raw), "msg") {
		t.Fatalf("the text itself is gone:\n%s", ansi.Strip(raw))
	}
}

// A request replaced with the same id and fewer questions: the form is
// built anew, and what the user typed stays where its field still is.
func TestRequestReplacedWithFewerQuestions(t *testing.T) {
	h, url := host(t)
	a := newHostScreen(t, url, "alice", Options{})
	h.Request(twoFields)
	a.until("the form", a.hasForm)
	a.keys("tab")
	a.typeText("Lima") // city, not yet sent
	h.Request(ahp.Request{ID: "r", Message: "Only the city now", Questions: twoFields.Questions[1:]})
	a.until("the new form", func() bool { return a.hasForm() && len(a.form().q.Schema.Fields) == 1 })
	if got := a.form().form.Value("city"); got != "Lima" {
		t.Fatalf("city became %q", got)
	}
	if strings.Contains(a.screen(), "Your name") {
		t.Fatalf("the dropped question is still shown:\n%s", a.screen())
	}
}

// On the attach screen a question has the keys as it comes, so its own
// grace keeps a key meant for the form before from answering it: the URL
// consent's too (it had none: the form's default grace, 0, was taken for
// the consent's "none").
func TestURLConsentHasItsGrace(t *testing.T) {
	h, url := host(t)
	a := hostGraceDriver(t, client(t, url, "alice"), "demo", Options{})
	h.Request(ahp.Request{ID: "u", Message: "Sign in", URL: "https://example.com/login"})
	a.until("the consent screen", func() bool { _, ok := a.m.queue.front().(*urlModal); return ok })
	a.key("d") // within its grace: ignored
	if a.m.queue.front() == nil {
		t.Fatal("a key within the grace declined the URL")
	}
	a.clk.advance(urlconsent.DefaultGrace)
	a.key("d")
	if c := completion(t, h); c.Response != qn.Decline {
		t.Fatalf("completion %+v", c)
	}
}

// Issue 31: a host's request over the caps every source shares (here a
// message one byte over question.MaxMessageBytes) is never shown: it is
// cancelled, with a note saying why.
func TestRequestOverTheCapsCancelled(t *testing.T) {
	h, url := host(t)
	a := newHostScreen(t, url, "alice", Options{})
	h.Request(ahp.Request{ID: "big", Message: strings.Repeat("x", qn.MaxMessageBytes+1), Questions: twoFields.Questions})
	a.until("the note", func() bool { return strings.Contains(a.screen(), "more than a question may carry") })
	if a.hasForm() {
		t.Error("the request was shown")
	}
	if c := completion(t, h); c.Response != qn.Cancel {
		t.Fatalf("completion %+v", c)
	}
}

// A host's URL is analyzed by the source's URLs: the user's well-known
// domains.
func TestHostsURLAnalyzedByOptionsURLs(t *testing.T) {
	h, url := host(t)
	src := attach.NewSource(client(t, url, "alice"), attach.SourceOptions{Title: "demo", URLs: urlcheck.NewAnalyzer("acme-intranet.corp")})
	a := sourceDriver(t, src, Options{Grace: -1})
	h.Request(ahp.Request{ID: "u", Message: "Sign in", URL: "https://acrne-intranet.corp/login"})
	a.until("the consent screen", func() bool { _, ok := a.m.queue.front().(*urlModal); return ok })
	if r := a.m.queue.front().(*urlModal).consent.Report(); !r.Has(urlcheck.CodeConfusable) {
		t.Errorf("no lookalike warning: %+v", r.Warnings)
	}
}
