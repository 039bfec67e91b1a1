package fullscreen

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/foreignhost"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// The attach screen on a host that is not elicit's: its chat has an id of
// its own and its fields are oddly typed. The form shows (a question of a
// kind elicit does not know noted), and the answer goes to that chat.
func TestAttachToAnotherHost(t *testing.T) {
	h, err := foreignhost.Start(foreignhost.Options{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	h.Ask("", `{"id":"r1","message":"Who are you?","questions":[
	 {"id":"name","kind":"text","title":"Name","message":"Your name","required":"yes","max":"lots"},
	 {"id":"mood","kind":"slider","message":"Mood","steps":5}]}`)
	c := dialTo(t, h.URL(), token, "alice")
	a := hostDriver(t, c, c.Title(), Options{})
	a.until("the form", a.hasForm)
	if txt := a.screen(); !strings.Contains(txt, "Pi session") || !strings.Contains(txt, "Who are you?") || !strings.Contains(txt, `"mood" is of a kind elicit does not know`) {
		t.Fatalf("screen:\n%s", txt)
	}
	a.typeText("Ada")
	a.keys("enter", "enter") // review, then send
	testkit.Until(t, "the answer at the host", func() bool { return h.Response("r1") == "accept" }, h.Changed, a.screen)
	for _, d := range h.Dispatched() {
		if d.Channel != h.ChatURI() {
			t.Fatalf("dispatched to %q, not the host's chat %q", d.Channel, h.ChatURI())
		}
	}
	a.until("the echo", func() bool { return strings.Contains(a.screen(), "you answered") })
	if txt := a.screen(); !strings.Contains(txt, `you answered form "Who are you?": Name "Ada"`) {
		t.Fatalf("screen:\n%s", txt)
	}
}
