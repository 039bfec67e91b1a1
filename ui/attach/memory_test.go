package attach

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/internal/history"
	qn "github.com/elicit-dev/elicit/question"
)

// run feeds the model msg and runs what it asks to run (once deep), as
// tea.Program would.
func (s *screen) run(msg tea.Msg) {
	_, cmd := s.m.Update(msg)
	for cmd != nil {
		next := cmd()
		cmd = nil
		if next != nil {
			_, cmd = s.m.Update(next)
		}
	}
}

// TestMemoryPrefillsTheSameFormNextTime: an accepted form is remembered
// (off the loop), and the same form asked again, in a later request,
// starts from last time's answers, marked as such.
func TestMemoryPrefillsTheSameFormNextTime(t *testing.T) {
	store, err := history.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h, url := host(t)
	c := client(t, url, "alice")
	a := &screen{m: New(Options{Conn: c, Title: "demo", Grace: -1, Width: 100, Height: 40, NoColor: true,
		Memory: Memory{History: store, Agent: "attach:demo"}}), c: c}
	h.Request(twoFields)
	a.until(t, "the form", hasForm)
	a.typeText("Ada")
	a.keys("tab")
	a.typeText("Rome")
	a.keys("enter")
	a.run(key("enter")) // send, and remember
	if c := completion(t, h); c.Response != qn.Accept {
		t.Fatalf("completion %+v", c)
	}
	a.until(t, "the echo", func(m *Model) bool { return m.cur == nil })

	again := twoFields
	again.ID = "r2"
	h.Request(again)
	a.until(t, "the same form again", hasForm)
	if v := a.m.cur.form.Value("name"); v != "Ada" {
		t.Errorf("name starts as %v, want last time's Ada", v)
	}
	if v := a.m.cur.form.Value("city"); v != "Rome" {
		t.Errorf("city starts as %v, want last time's Rome", v)
	}
	if !strings.Contains(a.text(), "answers from last time") {
		t.Errorf("the prefill is not marked:\n%s", a.text())
	}
}

// TestNoMemoryWithoutHistory: --no-history (no store) prefills nothing.
func TestNoMemoryWithoutHistory(t *testing.T) {
	h, url := host(t)
	a := newScreen(t, url, "alice")
	h.Request(twoFields)
	a.until(t, "the form", hasForm)
	if strings.Contains(a.text(), "answers from last time") {
		t.Errorf("prefilled without history:\n%s", a.text())
	}
}
