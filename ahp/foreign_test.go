package ahp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/foreignhost"
	"github.com/elicit-dev/elicit/internal/testkit"
	"github.com/elicit-dev/elicit/question"
)

// A host that is not elicit's (internal/foreignhost, written from the
// wire notes): its chat has an id of its own, and it sends extra and oddly
// typed fields everywhere the client decodes.

const foreignToken = "foreign-token-0123"

// oddRequest is a request with fields of unexpected types besides the ones
// elicit needs.
const oddRequest = `{"id":"r1","message":"Who are you?","createdBy":{"tool":"github"},
 "questions":[
  {"id":"name","kind":"text","title":"Name","message":"Your name","required":true,"min":"2","max":"lots","placeholder":7},
  {"id":"age","kind":"integer","title":9,"message":"Age","required":"yes","min":0,"max":150,"defaultValue":"thirty"},
  {"id":"color","kind":"single-select","message":"Colour","options":[{"id":"red","label":"Red","recommended":1,"icon":{"x":1}},{"id":"blue","label":"Blue","recommended":"no"}]},
  {"id":"mood","kind":"slider","message":"How do you feel","steps":5}
 ],
 "answers":{"name":{"state":"draft","value":{"kind":"text","value":"Ada"},"by":"vscode"},
            "age":{"state":"draft","value":{"kind":"number","value":"thirty"}},
            "color":"red"}}`

func foreign(t *testing.T, o foreignhost.Options) *foreignhost.Host {
	t.Helper()
	o.Token = foreignToken
	h, err := foreignhost.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

func dialForeign(t *testing.T, h *foreignhost.Host, o ClientOptions) (*Client, error) {
	t.Helper()
	o.URL, o.Token = h.URL(), foreignToken
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	c, err := Dial(ctx, o)
	if err == nil {
		t.Cleanup(c.Close)
	}
	return c, err
}

// next waits for the event ok wants; Hang bounds it.
func next(t *testing.T, c *Client, what string, ok func(Event) bool) Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	for {
		ev, more := c.Next(ctx)
		if !more {
			t.Fatalf("no %s after %v: it hangs", what, testkit.Hang)
		}
		if ok(ev) {
			return ev
		}
	}
}

// dispatched waits until the host received an action of type typ, and
// returns it.
func dispatched(t *testing.T, h *foreignhost.Host, typ string) foreignhost.Dispatch {
	t.Helper()
	var got foreignhost.Dispatch
	testkit.Until(t, "a "+typ+" at the host", func() bool {
		for _, d := range h.Dispatched() {
			if d.Type == typ {
				got = d
				return true
			}
		}
		return false
	}, h.Changed, func() string { return "" })
	return got
}

// The chat comes from the session's snapshot: the host's chat is not named
// after the session, so deriving it (ahp-chat:/s1) fails the attach at once.
func TestForeignChatNamedApartFromSession(t *testing.T) {
	h := foreign(t, foreignhost.Options{Tidy: true})
	h.Ask("", `{"id":"r1","message":"Name?","questions":[{"id":"name","kind":"text","message":"Name"}]}`)
	c, err := dialForeign(t, h, ClientOptions{Session: h.SessionURI()})
	if err != nil {
		t.Fatalf("attach to a host whose chat has its own id: %v", err)
	}
	if got := c.Chats(); !slices.Equal(got, []string{h.ChatURI()}) {
		t.Fatalf("follows %q, want the snapshot's chat %q", got, h.ChatURI())
	}
	if in := c.Inputs(); in.Open("r1") == nil {
		t.Fatalf("the chat's request is not in the view: %+v", in)
	}
	c.Dispatch(InputAnswerChanged{RequestID: "r1", QuestionID: "name", Answer: draft("Ada")})
	if d := dispatched(t, h, "chat/inputAnswerChanged"); d.Channel != h.ChatURI() {
		t.Fatalf("the draft went to %q, want %q", d.Channel, h.ChatURI())
	}
	next(t, c, "the echo of the draft", func(ev Event) bool {
		ch, ok := ev.(Changed)
		return ok && ch.Mine && answerText(ch.Inputs, "r1", "name") == "Ada"
	})
	c.Dispatch(InputCompleted{RequestID: "r1", Response: question.Accept, Answers: map[string]Answer{"name": submitted("Ada")}})
	next(t, c, "the echo of the completion", func(ev Event) bool {
		ch, ok := ev.(Changed)
		_, done := ch.Action.(InputCompleted)
		return ok && ch.Mine && done
	})
	if got := h.Response("r1"); got != "accept" {
		t.Fatalf("host's response %q", got)
	}
}

// A session summary with a field of an unexpected type (status as a
// string) and a request with odd fields everywhere: elicit reads what it
// needs and tolerates the rest.
func TestForeignOddFieldsTolerated(t *testing.T) {
	h := foreign(t, foreignhost.Options{})
	h.Ask("", oddRequest)
	c, err := dialForeign(t, h, ClientOptions{})
	if err != nil {
		t.Fatalf("attach to a host with odd fields: %v", err)
	}
	if c.Title() != "Pi session" || c.Session() != h.SessionURI() {
		t.Fatalf("title %q session %q", c.Title(), c.Session())
	}
	in := c.Inputs()
	e := in.Open("r1")
	if e == nil {
		t.Fatalf("no request: %+v", c.Inputs())
	}
	r := e.Request
	if r.Message != "Who are you?" || len(r.Questions) != 4 {
		t.Fatalf("request %+v", r)
	}
	name, age, color, mood := r.Questions[0], r.Questions[1], r.Questions[2], r.Questions[3]
	if name.ID != "name" || name.Kind != KindText || !name.Required || name.Min == nil || *name.Min != "2" || name.Max != nil {
		t.Errorf("name %+v", name)
	}
	if age.Title != "9" || age.Required || age.Max == nil || *age.Max != "150" {
		t.Errorf("age %+v", age)
	}
	if len(color.Options) != 2 || !color.Options[0].Recommended || color.Options[1].Recommended {
		t.Errorf("color %+v", color)
	}
	if mood.Known() {
		t.Errorf("a slider is no kind elicit knows: %+v", mood)
	}
	if a := r.Answers["name"]; a.Value == nil || a.Value.Kind != ValueText || a.Value.Text != "Ada" {
		t.Errorf("the name draft %+v", a)
	}
	if a, ok := r.Answers["age"]; !ok || a.Value == nil || a.Value.Kind != "" {
		t.Errorf("a number that is a string is kept as a value of no kind: %+v", a)
	}
	if _, ok := r.Answers["color"]; ok {
		t.Errorf("an answer that is not an object is left out: %+v", r.Answers)
	}
	// A later action with odd fields is applied too.
	c.Dispatch(InputAnswerChanged{RequestID: "r1", QuestionID: "name", Answer: draft("Grace")})
	next(t, c, "the echo", func(ev Event) bool {
		ch, ok := ev.(Changed)
		return ok && ch.Mine && answerText(ch.Inputs, "r1", "name") == "Grace"
	})
}

// A host that names no chat (as elicit's own did) gets the chat named after
// the session.
func TestForeignNoChatsFallsBackToSessionID(t *testing.T) {
	h := foreign(t, foreignhost.Options{NoChats: true})
	h.Ask("", `{"id":"r1","questions":[{"id":"q","kind":"boolean","message":"OK?"}]}`)
	c, err := dialForeign(t, h, ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Chats(); !slices.Equal(got, []string{"ahp-chat:/s1"}) {
		t.Fatalf("follows %q", got)
	}
	if in := c.Inputs(); in.Open("r1") == nil {
		t.Fatalf("no request: %+v", in)
	}
}

// A request asked later in a chat the snapshot did not name: the
// session's inputNeededSet names the chat, the client follows it, and its
// answer goes there.
func TestForeignLaterChatFollowed(t *testing.T) {
	h := foreign(t, foreignhost.Options{})
	c, err := dialForeign(t, h, ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sub := h.AddChat("worker-9")
	h.Ask(sub, `{"id":"r9","message":"Deploy?","questions":[{"id":"go","kind":"boolean","message":"Go ahead?","required":true}]}`)
	next(t, c, "the request of the new chat", changedTo(func(in Inputs) bool { return in.Open("r9") != nil }))
	if got := c.Chats(); !slices.Contains(got, sub) {
		t.Fatalf("follows %q, not %q", got, sub)
	}
	c.Dispatch(InputCompleted{RequestID: "r9", Response: question.Decline})
	if d := dispatched(t, h, "chat/inputCompleted"); d.Channel != sub {
		t.Fatalf("the completion went to %q, want %q", d.Channel, sub)
	}
	if d := dispatched(t, h, "chat/inputCompleted"); !strings.Contains(string(d.Action), `"decline"`) {
		t.Fatalf("action %s", d.Action)
	}
}

// lenient reads what fits and leaves the rest zero; the host's own
// decoding stays strict.
func TestLenientSummary(t *testing.T) {
	raw := `{"items":[{"resource":"ahp-session:/a","title":5,"status":"24","modifiedAt":17},
	 {"resource":"ahp-session:/b","status":"idle","extra":[1]}, 7], "sessions": "none"}`
	var res listSessionsResult
	lenient([]byte(raw), &res)
	if len(res.Items) != 2 || res.Items[0].Title != "5" || res.Items[0].Status != 24 || !res.Items[0].NeedsInput() ||
		res.Items[0].ModifiedAt != "17" || res.Items[1].Status != 0 || res.Sessions != nil {
		t.Fatalf("%+v", res)
	}
	if err := json.Unmarshal([]byte(raw), &res); err == nil {
		t.Fatal("the strict decoder took it")
	}
	if _, _, err := Current.decode(json.RawMessage(`{"type":"chat/inputAnswerChanged","requestId":7,"questionId":"q"}`)); err == nil {
		t.Fatal("the host's decoding took a request id that is a number")
	}
}

// ListSessions lists a host's sessions, elicit's or another's (it read no
// message at all before: its read limit was left at zero).
func TestListSessions(t *testing.T) {
	_, url := startHost(t, HostOptions{Title: "demo"})
	f := foreign(t, foreignhost.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Hang)
	defer cancel()
	mine, err := ListSessions(ctx, ClientOptions{URL: url, Token: testToken})
	if err != nil || len(mine) != 1 || mine[0].Title != "demo" {
		t.Fatalf("elicit's host: %+v, %v", mine, err)
	}
	theirs, err := ListSessions(ctx, ClientOptions{URL: f.URL(), Token: foreignToken})
	if err != nil || len(theirs) != 1 || theirs[0].Resource != f.SessionURI() || theirs[0].Title != "Pi session" {
		t.Fatalf("another host: %+v, %v", theirs, err)
	}
}

// A connection that ends while a call waits fails the call at once with
// the reason (here a message over the client's cap), instead of leaving
// it to its deadline.
func TestCallFailsWhenTheConnectionEnds(t *testing.T) {
	f := foreign(t, foreignhost.Options{})
	_, err := dialForeign(t, f, ClientOptions{MaxMessage: 64})
	if err == nil || !strings.Contains(err.Error(), "the connection to the host ended") {
		t.Fatalf("err %v", err)
	}
}
