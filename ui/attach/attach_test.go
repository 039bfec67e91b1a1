package attach

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/testkit"
	qn "github.com/elicit-dev/elicit/question"
)

const token = "attach-test-token-0123"

// A real host behind the real server; clients over real sockets.
func host(t *testing.T) (*ahp.Host, string) {
	t.Helper()
	h := ahp.NewHost(ahp.HostOptions{Title: "demo"})
	s, err := ahp.Listen(ahp.ServerOptions{Token: token}, h)
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve()
	t.Cleanup(func() { s.Close(); h.Close() })
	return h, s.URL()
}

func client(t *testing.T, url, id string) *ahp.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	c, err := ahp.Dial(ctx, ahp.ClientOptions{URL: url, Token: token, ClientID: id})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// screen is an attach model fed by its own client.
type screen struct {
	m *Model
	c *ahp.Client
}

func newScreen(t *testing.T, url, id string) *screen {
	c := client(t, url, id)
	m := New(Options{Conn: c, Title: "demo", Grace: -1, Width: 100, Height: 40, NoColor: true})
	return &screen{m: m, c: c}
}

// until feeds the model its client's events, as they come, until ok
// holds; testkit.Hang ends a wait for what never comes.
func (s *screen) until(t *testing.T, what string, ok func(*Model) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	for !ok(s.m) {
		ev, more := s.c.Next(ctx)
		if !more {
			t.Fatalf("no %s (the client closed, or it hangs); screen:\n%s", what, s.text())
		}
		s.m.Update(eventMsg{ev: ev})
	}
}

func (s *screen) text() string { return ansi.Strip(s.m.render()) }

func key(name string) tea.KeyPressMsg {
	switch name {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "ctrl+t", "ctrl+s", "ctrl+x":
		return tea.KeyPressMsg{Code: rune(name[5]), Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: rune(name[0]), Text: name}
}

func (s *screen) keys(names ...string) {
	for _, n := range names {
		s.m.Update(key(n))
	}
}

func (s *screen) typeText(text string) {
	for _, r := range text {
		s.m.Update(key(string(r)))
	}
}

// pause ends the typing pause at once (what the debounce tick does).
func (s *screen) pause() { s.m.Update(typedMsg{gen: s.m.typing}) }

func hostAnswer(h *ahp.Host, req, q string) string {
	in := h.Inputs()
	e := in.Find(req)
	if e == nil || e.Request.Answers[q].Value == nil {
		return ""
	}
	return e.Request.Answers[q].Value.Text
}

// waitHost waits until ok holds of h's state, checked after each change
// h applies; testkit.Hang ends a wait for what never comes.
func waitHost(t *testing.T, h *ahp.Host, what string, ok func() bool) {
	t.Helper()
	next, stop := h.Watch() // before the first check: no change is missed
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	for !ok() {
		if _, more := next(ctx); !more {
			t.Fatalf("no %s (the host closed, or it hangs)", what)
		}
	}
}

// completion waits for the next completion h receives.
func completion(t *testing.T, h *ahp.Host) ahp.Completion {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	c, ok := h.NextCompletion(ctx)
	if !ok {
		t.Fatal("no completion (the host closed, or it hangs)")
	}
	return c
}

var twoFields = ahp.Request{ID: "r", Message: "Who are you?", Questions: []ahp.Question{
	{ID: "name", Kind: ahp.KindText, Title: "Name", Message: "Your name", Required: true},
	{ID: "city", Kind: ahp.KindText, Title: "City", Message: "Where"},
}}

func hasForm(m *Model) bool { return m.cur != nil && m.cur.form != nil }

func TestDraftsGoOutAsTheUserMoves(t *testing.T) {
	h, url := host(t)
	a := newScreen(t, url, "alice")
	h.Request(twoFields)
	a.until(t, "the form", hasForm)
	a.typeText("Ada")
	a.keys("tab") // leaving the field sends it at once
	waitHost(t, h, "the name draft", func() bool { return hostAnswer(h, "r", "name") == "Ada" })
	a.typeText("Par")
	a.pause() // a typing pause sends the field being typed in
	waitHost(t, h, "the city draft", func() bool { return hostAnswer(h, "r", "city") == "Par" })
}

func TestTypingUserNotClobbered(t *testing.T) {
	h, url := host(t)
	a := newScreen(t, url, "alice")
	b := client(t, url, "bob")
	h.Request(twoFields)
	a.until(t, "the form", hasForm)
	a.typeText("Ad")
	b.Dispatch(ahp.InputAnswerChanged{RequestID: "r", QuestionID: "name", Answer: &ahp.Answer{State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueText, Text: "Bob's"}}})
	b.Dispatch(ahp.InputAnswerChanged{RequestID: "r", QuestionID: "city", Answer: &ahp.Answer{State: ahp.Draft, Value: &ahp.Value{Kind: ahp.ValueText, Text: "Oslo"}}})
	a.until(t, "bob's drafts", func(m *Model) bool { return m.cur.form.Value("city") == "Oslo" })
	if got := a.m.cur.form.Value("name"); got != "Ad" {
		t.Fatalf("the field being typed in became %q", got)
	}
	if txt := a.text(); !strings.Contains(txt, `bob changed "Name" while you edit it`) || !strings.Contains(txt, "ctrl+t takes theirs") {
		t.Fatalf("no notice:\n%s", txt)
	}
	a.keys("ctrl+t")
	if got := a.m.cur.form.Value("name"); got != "Bob's" {
		t.Fatalf("ctrl+t gave %q", got)
	}
}

func TestCompletionElsewhereClosesTheForm(t *testing.T) {
	h, url := host(t)
	a := newScreen(t, url, "alice")
	b := client(t, url, "bob")
	h.Request(twoFields)
	a.until(t, "the form", hasForm)
	a.typeText("unsaved")
	b.Dispatch(ahp.InputCompleted{RequestID: "r", Response: qn.Accept, Answers: map[string]ahp.Answer{
		"name": {State: ahp.Submitted, Value: &ahp.Value{Kind: ahp.ValueText, Text: "Bob"}}}})
	a.until(t, "the form closes", func(m *Model) bool { return m.cur == nil })
	txt := a.text()
	if !strings.Contains(txt, "answered elsewhere: accept (by bob)") || !strings.Contains(txt, "Name: unsaved") {
		t.Fatalf("screen:\n%s", txt)
	}
}

func TestRequiredSkippedRefusedLocally(t *testing.T) {
	h, url := host(t)
	a := newScreen(t, url, "alice")
	h.Request(twoFields)
	a.until(t, "the form", hasForm)
	a.keys("ctrl+s") // skip the required name
	waitHost(t, h, "the skip", func() bool {
		in := h.Inputs()
		return in.Open("r").Request.Answers["name"].State == ahp.Skipped
	})
	a.keys("tab", "enter") // to the review: refused, a field needs attention
	if _, done := a.m.cur.form.Done(); done || a.m.cur.sent {
		t.Fatal("the form was sent with a required question skipped")
	}
	if !strings.Contains(a.text(), "needs attention") {
		t.Fatalf("no local refusal:\n%s", a.text())
	}
}

func TestAcceptSendsFullFinalAnswers(t *testing.T) {
	h, url := host(t)
	a := newScreen(t, url, "alice")
	h.Request(twoFields)
	a.until(t, "the form", hasForm)
	a.typeText("Ada")
	a.keys("tab")
	a.typeText("Rome")
	a.keys("enter", "enter") // review, then send
	c := completion(t, h)
	if c.Response != qn.Accept || c.Request.Answers["city"].State != ahp.Submitted || c.Request.Answers["city"].Value.Text != "Rome" {
		t.Fatalf("completion %+v", c)
	}
	a.until(t, "the echo", func(m *Model) bool { return m.cur == nil })
	if !strings.Contains(a.text(), `you answered form "Who are you?": Name "Ada" · City "Rome"`) {
		t.Fatalf("screen:\n%s", a.text())
	}
}

func TestTurnEndClosesTheForm(t *testing.T) {
	h, url := host(t)
	a := newScreen(t, url, "alice")
	h.Request(twoFields)
	a.until(t, "the form", hasForm)
	h.EndTurn(ahp.TurnCancelled)
	a.until(t, "the form closes", func(m *Model) bool { return m.cur == nil })
	if !strings.Contains(a.text(), "the turn ended") {
		t.Fatalf("screen:\n%s", a.text())
	}
}

func TestURLOnlyRequestShowsConsent(t *testing.T) {
	h, url := host(t)
	a := newScreen(t, url, "alice")
	h.Request(ahp.Request{ID: "u", Message: "Sign in", URL: "https://xn--80ak6aa92e.com/login"})
	a.until(t, "the consent screen", func(m *Model) bool { return m.cur != nil && m.cur.consent != nil })
	if txt := a.text(); !strings.Contains(txt, "xn--80ak6aa92e.com") {
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
	a := newScreen(t, url, "alice")
	h.Request(ahp.Request{ID: "d", Questions: []ahp.Question{{ID: "a", Kind: ahp.KindText, Message: "x"}, {ID: "a", Kind: ahp.KindText, Message: "y"}}})
	a.until(t, "the note", func(*Model) bool { return strings.Contains(a.text(), "cannot show") })
	if c := completion(t, h); c.Response != qn.Cancel {
		t.Fatalf("completion %+v", c)
	}
}

// Hostile text from a host (escapes, OSC links, bidi) is made harmless in
// every part of the screen: message, titles, option labels, notes.
func TestHostileTextSanitized(t *testing.T) {
	h, url := host(t)
	a := newScreen(t, url, "alice")
	evil := "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07\x1b[2J\u202eabc"
	h.Request(ahp.Request{ID: "r", Message: "msg " + evil, Questions: []ahp.Question{
		{ID: "pick", Kind: ahp.KindSingleSelect, Title: "title " + evil, Message: evil, Required: true,
			Options: []ahp.Option{{ID: "x", Label: "label " + evil}, {ID: "y", Label: "ok"}}},
		{ID: "odd" + evil, Kind: "kind" + evil, Message: "?"},
	}})
	a.until(t, "the form", hasForm)
	raw := a.m.render()
	for _, bad := range []string{"\x1b]8", "\x1b[2J", "\u202e", "\x07"} {
		if strings.Contains(raw, bad) {
			t.Fatalf("%q reached the screen:\n%q", bad, raw)
		}
	}
	if !strings.Contains(ansi.Strip(raw), "label") || !strings.Contains(ansi.Strip(raw), "msg") {
		t.Fatalf("the text itself is gone:\n%s", ansi.Strip(raw))
	}
}

func TestRunAnswers(t *testing.T) {
	h, url := host(t)
	c := client(t, url, "script")
	qs := []ahp.Question{
		{ID: "name", Kind: ahp.KindText, Message: "Name", Required: true},
		{ID: "color", Kind: ahp.KindSingleSelect, Message: "Colour", Options: []ahp.Option{{ID: "r", Label: "Red"}, {ID: "b", Label: "Blue"}}},
		{ID: "tags", Kind: ahp.KindMultiSelect, Message: "Tags", Options: []ahp.Option{{ID: "x", Label: "X"}, {ID: "y", Label: "Y"}}},
		{ID: "n", Kind: ahp.KindInteger, Message: "N", DefaultValue: json.RawMessage("3")},
	}
	h.Request(ahp.Request{ID: "r1", Questions: qs})
	var out, errs testkit.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- RunAnswers(ctx, c, map[string]json.RawMessage{"name": []byte(`"Ada"`), "color": []byte(`"b"`), "tags": []byte(`["x","y"]`)}, &out, &errs)
	}()
	got := completion(t, h)
	if got.Response != qn.Accept {
		t.Fatalf("completion %+v", got)
	}
	a := got.Request.Answers
	if a["name"].Value.Text != "Ada" || a["color"].Value.Selected != "b" || len(a["tags"].Value.Many) != 2 || a["n"].Value.Number != "3" {
		t.Fatalf("answers %+v", a)
	}
	// Nobody is there to consent to a URL, or to answer what the file
	// does not: cancelled, never declined (the agent would read decline
	// as a person's no), with the reason on stderr.
	h.Request(ahp.Request{ID: "u1", URL: "https://example.com/"})
	got = completion(t, h)
	if got.Response != qn.Cancel {
		t.Fatalf("a URL was not cancelled: %+v", got)
	}
	h.Request(ahp.Request{ID: "r2", Questions: []ahp.Question{{ID: "age", Kind: ahp.KindInteger, Message: "Age", Required: true}}})
	got = completion(t, h)
	if got.Response != qn.Cancel {
		t.Fatalf("a request the answers cannot fill was not cancelled: %+v", got)
	}
	out.WaitCount(t, "\n", 3) // three JSON lines
	for _, want := range []string{"cancel request u1: no person to consent to opening it", `cancel request r2: "age": required`} {
		errs.WaitFor(t, want)
	}
	cancel()
	<-done
	var line Completed
	if err := json.Unmarshal([]byte(strings.Split(out.String(), "\n")[0]), &line); err != nil || line.Request != "r1" || !line.Mine || line.Response != qn.Accept {
		t.Fatalf("line %q: %v", out.String(), err)
	}
}

// A request replaced with the same id and fewer questions: the form is
// built anew, and what the user typed stays where its field still is.
func TestRequestReplacedWithFewerQuestions(t *testing.T) {
	h, url := host(t)
	a := newScreen(t, url, "alice")
	h.Request(twoFields)
	a.until(t, "the form", hasForm)
	a.keys("tab")
	a.typeText("Lima") // city, not yet sent
	h.Request(ahp.Request{ID: "r", Message: "Only the city now", Questions: twoFields.Questions[1:]})
	a.until(t, "the new form", func(m *Model) bool { return hasForm(m) && len(m.cur.req.Questions) == 1 })
	if got := a.m.cur.form.Value("city"); got != "Lima" {
		t.Fatalf("city became %q", got)
	}
	if strings.Contains(a.text(), "Your name") {
		t.Fatalf("the dropped question is still shown:\n%s", a.text())
	}
}
