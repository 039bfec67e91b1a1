package fullscreen

import (
	"strings"
	"testing"

	histstore "github.com/elicit-dev/elicit/internal/history"
	qn "github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/session"
	"github.com/elicit-dev/elicit/ui"
)

// TestMemoryPrefillsTheSameFormNextTime: an accepted form is remembered
// (off the loop), and the same form asked again, in a later request,
// starts from last time's answers, marked as such.
func TestMemoryPrefillsTheSameFormNextTime(t *testing.T) {
	store, err := histstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h, url := host(t)
	a := newHostScreen(t, url, "alice", Options{Memory: ui.Memory{History: store, Agent: "attach:demo"}})
	h.Request(twoFields)
	a.until("the form", a.hasForm)
	fp := session.FormFingerprint(a.form().q.Schema)
	a.typeText("Ada")
	a.keys("tab")
	a.typeText("Rome")
	a.keys("enter", "enter") // review, send: remembered
	if c := completion(t, h); c.Response != qn.Accept {
		t.Fatalf("completion %+v", c)
	}
	a.until("the answers remembered", func() bool {
		snap, err := store.Snapshot()
		_, ok := snap.Answers("attach:demo", fp)
		return err == nil && ok
	})

	again := twoFields
	again.ID = "r2"
	h.Request(again)
	a.until("the same form again", a.hasForm)
	if v := a.form().form.Value("name"); v != "Ada" {
		t.Errorf("name starts as %v, want last time's Ada", v)
	}
	if v := a.form().form.Value("city"); v != "Rome" {
		t.Errorf("city starts as %v, want last time's Rome", v)
	}
	if !strings.Contains(a.screen(), "answers from last time") {
		t.Errorf("the prefill is not marked:\n%s", a.screen())
	}
}

// TestNoMemoryWithoutHistory: --no-history (no store) prefills nothing.
func TestNoMemoryWithoutHistory(t *testing.T) {
	h, url := host(t)
	a := newHostScreen(t, url, "alice", Options{})
	h.Request(twoFields)
	a.until("the form", a.hasForm)
	if strings.Contains(a.screen(), "answers from last time") {
		t.Errorf("prefilled without history:\n%s", a.screen())
	}
}
