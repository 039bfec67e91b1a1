package inbox

import (
	"github.com/elicit-dev/elicit/ahp"
)

// The feed is every source's events in order, for a screen that keeps
// each session's requests as questions (ui/attach's Source, one a
// session): it reads them with Events when Changed signals. What the feed
// holds of a source is bounded as its state is (MaxSession): past it, the
// source's events waiting are replaced by one ahp.Reset with its state
// now, which a client applies as it does a reconnect's snapshot.

// Event is one thing a source did: its session, the client connected to
// it (to answer and draft on) and the client's event. A source's last
// event is an ahp.Closed: it ended, or was dropped.
type Event struct {
	Session *Session
	Client  *ahp.Client
	Ev      ahp.Event
}

// Key is the event's source's key (Session.Source.Key).
func (e Event) Key() string { return e.Session.Source.Key }

// Events takes the events waiting, oldest first; nil when none wait.
func (w *Watcher) Events() []Event {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.feed
	w.feed = nil
	clear(w.held)
	return out
}

// forward puts an event that changes no state on the feed.
func (w *Watcher) forward(l *live, ev ahp.Event) {
	w.mu.Lock()
	w.push(l, ev, ahp.Inputs{})
	w.mu.Unlock()
	w.poke()
}

// push puts ev, which carries in, on the feed. w.mu is held.
func (w *Watcher) push(l *live, ev ahp.Event, in ahp.Inputs) {
	w.held[l] += sizeOf(in) + 64
	if w.held[l] > MaxSession {
		kept := w.feed[:0]
		for _, e := range w.feed {
			if e.Session != l.s {
				kept = append(kept, e)
			}
		}
		w.feed = kept
		if _, closed := ev.(ahp.Closed); !closed {
			ev = ahp.Reset{Inputs: l.in}
		} else {
			w.feed = append(w.feed, Event{Session: l.s, Client: l.c, Ev: ahp.Reset{Inputs: l.in}})
		}
		w.held[l] = sizeOf(l.in) + 64
	}
	w.feed = append(w.feed, Event{Session: l.s, Client: l.c, Ev: ev})
}
