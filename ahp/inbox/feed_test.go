package inbox

import (
	"fmt"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// feedUntil reads w's feed until ok holds of what was read so far.
func feedUntil(t *testing.T, w *Watcher, what string, got *[]Event, ok func() bool) {
	t.Helper()
	testkit.Until(t, what, func() bool {
		*got = append(*got, w.Events()...)
		return ok()
	}, w.Changed, func() string { return fmt.Sprintf("%d events: %+v", len(*got), *got) })
}

// The feed carries each session's events in order, from the snapshot it
// was connected with to an ahp.Closed once the session ends.
func TestFeedFollowsASession(t *testing.T) {
	runtimeDir(t)
	h := ahp.NewHost(ahp.HostOptions{Title: "one", Meta: &ahp.SessionMeta{Agent: "one"}})
	pub, err := Publish(h, ahp.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Request(form("q1", "first")); err != nil {
		t.Fatal(err)
	}
	w, err := Watch(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var got []Event
	feedUntil(t, w, "the snapshot", &got, func() bool { return len(got) > 0 })
	reset, ok := got[0].Ev.(ahp.Reset)
	if !ok || reset.Inputs.Open("q1") == nil || got[0].Session.Meta.Agent != "one" || got[0].Client == nil {
		t.Fatalf("the first event is %+v", got[0])
	}
	if err := h.Request(form("q2", "second")); err != nil {
		t.Fatal(err)
	}
	feedUntil(t, w, "the second question", &got, func() bool {
		c, ok := got[len(got)-1].Ev.(ahp.Changed)
		return ok && c.Inputs.Open("q2") != nil
	})
	pub.Close()
	h.Close()
	feedUntil(t, w, "the end", &got, func() bool {
		_, ok := got[len(got)-1].Ev.(ahp.Closed)
		return ok
	})
	for _, e := range got[:len(got)-1] {
		if _, ok := e.Ev.(ahp.Closed); ok {
			t.Fatalf("a Closed before the last event: %+v", got)
		}
	}
}

// The feed holds at most MaxSession of a session while nobody reads it:
// past it, what waits is replaced by one Reset with the session's state.
func TestFeedHoldsAtMostMaxSession(t *testing.T) {
	l := &live{s: &Session{Source: Source{Key: "k"}}}
	other := &live{s: &Session{Source: Source{Key: "other"}}}
	w := &Watcher{held: map[*live]int{}}
	big := func(id string) ahp.Inputs {
		return ahp.Inputs{Entries: []ahp.Entry{{Request: ahp.Request{ID: id, Message: strings.Repeat("x", MaxSession/3)}}}}
	}
	w.push(other, ahp.Reset{}, ahp.Inputs{})
	for i := range 6 {
		l.in = big(fmt.Sprint("q", i))
		w.push(l, ahp.Changed{Inputs: l.in}, l.in)
		if w.held[l] > MaxSession {
			t.Fatalf("after %d events the feed holds %d bytes of the session", i+1, w.held[l])
		}
	}
	evs := w.Events()
	if len(evs) > 4 || evs[0].Session != other.s {
		t.Fatalf("the feed: %d events, first %+v", len(evs), evs[0])
	}
	last := evs[len(evs)-1]
	if r, ok := last.Ev.(ahp.Reset); ok && r.Inputs.Open("q5") != nil {
		return
	}
	if c, ok := last.Ev.(ahp.Changed); !ok || c.Inputs.Open("q5") == nil {
		t.Fatalf("the last event lost the session's state: %+v", last.Ev)
	}
}

// A session whose questions hold more than MaxSession is dropped, with
// the reason, and its feed ends.
func TestWatcherDropsASessionOverMaxSession(t *testing.T) {
	runtimeDir(t)
	h, _ := publish(t, ahp.SessionMeta{Agent: "big"})
	w, err := Watch(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i := range 5 {
		r := form(fmt.Sprint("q", i), "big")
		r.Meta = ahp.RequestMeta{Kind: ahp.MetaPermission, Call: &ahp.ToolCall{Content: []string{strings.Repeat("y", 250<<10)}}}.Raw()
		if err := h.Request(r); err != nil {
			t.Fatal(err)
		}
	}
	var got []Event
	feedUntil(t, w, "the session dropped", &got, func() bool {
		if len(got) == 0 {
			return false
		}
		_, ok := got[len(got)-1].Ev.(ahp.Closed)
		return ok
	})
	if len(w.Items()) != 0 {
		t.Fatalf("still listed: %d items", len(w.Items()))
	}
	ps := w.Problems()
	if len(ps) == 0 || !strings.Contains(ps[len(ps)-1].Error(), "more than 1 MiB") {
		t.Fatalf("problems: %v", ps)
	}
}
