package share

import (
	"context"
	"sync"

	"github.com/elicit-dev/elicit/question"
)

// queue is what other clients did, for the serving terminal, in the order
// they did it. A draft to a field whose earlier draft still waits replaces
// it where it stands: only the latest counts, so a client that floods
// fields with drafts holds one entry per field here and costs the screen
// one update per field, however fast it sends. Answers are kept each.
type queue struct {
	mu     sync.Mutex
	items  []*entry
	drafts map[draftKey]*entry // the drafts waiting, by field
	ready  chan struct{}
	closed bool
}

type entry struct{ v any } // an Answer or a Draft

type draftKey struct {
	q  *question.Question
	id string
}

func newQueue() *queue {
	return &queue{drafts: map[draftKey]*entry{}, ready: make(chan struct{}, 1)}
}

// put adds an Answer, or a Draft (replacing a waiting one to its field).
func (w *queue) put(v any) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	if d, ok := v.(Draft); ok {
		k := draftKey{d.Q, d.QuestionID}
		if e := w.drafts[k]; e != nil {
			e.v = d
			w.mu.Unlock()
			return
		}
		w.drafts[k] = &entry{v: d}
		w.items = append(w.items, w.drafts[k])
	} else {
		w.items = append(w.items, &entry{v: v})
	}
	w.mu.Unlock()
	select {
	case w.ready <- struct{}{}:
	default:
	}
}

// next waits for the oldest item; ok is false once ctx is done or the
// queue closed.
func (w *queue) next(ctx context.Context) (any, bool) {
	for {
		w.mu.Lock()
		if w.closed {
			w.mu.Unlock()
			return nil, false
		}
		if len(w.items) > 0 {
			e := w.items[0]
			w.items[0] = nil
			w.items = w.items[1:]
			if d, ok := e.v.(Draft); ok {
				delete(w.drafts, draftKey{d.Q, d.QuestionID})
			}
			w.mu.Unlock()
			return e.v, true
		}
		w.mu.Unlock()
		select {
		case <-w.ready:
		case <-ctx.Done():
			return nil, false
		}
	}
}

func (w *queue) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	select {
	case w.ready <- struct{}{}:
	default:
	}
}
