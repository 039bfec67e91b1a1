package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// modal is one entry of the modal queue: a question in front of the prompt.
// Only the front modal gets keys. A modal reports its answer through done;
// the root decides what the answer means (see resolve).
type modal interface {
	// reqID is the acpconn request the modal answers, 0 for local ones.
	reqID() uint64
	update(msg tea.Msg) tea.Cmd
	view(width, height int) string
	done() bool
	setPosition(index, total int)
	// focus restarts the grace period when the modal comes to the front.
	focus()
	// draft describes what the user entered so far, "" when nothing: when
	// the modal closes from outside, it is kept in the transcript.
	draft() string
}

// grace is how long a new modal ignores keys, so that a keystroke meant
// for the prompt cannot answer a question that just popped up.
const grace = 400 * time.Millisecond

// graceKeys reports whether a key press arrives too soon after shown.
func graceKeys(msg tea.Msg, shown time.Time, now func() time.Time) bool {
	if _, ok := msg.(tea.KeyPressMsg); !ok {
		return false
	}
	return now().Sub(shown) < grace
}

// queue is the modal queue.
type queue struct{ items []modal }

func (q *queue) front() modal {
	if len(q.items) == 0 {
		return nil
	}
	return q.items[0]
}

func (q *queue) push(m modal) {
	q.items = append(q.items, m)
	q.renumber()
}

func (q *queue) remove(m modal) {
	for i, x := range q.items {
		if x == m {
			q.items = append(q.items[:i], q.items[i+1:]...)
			if i == 0 && len(q.items) > 0 {
				q.items[0].focus()
			}
			break
		}
	}
	q.renumber()
}

func (q *queue) byReq(id uint64) modal {
	for _, x := range q.items {
		if id != 0 && x.reqID() == id {
			return x
		}
	}
	return nil
}

// byKind returns the first modal for which is reports true.
func (q *queue) byKind(is func(modal) bool) modal {
	for _, x := range q.items {
		if is(x) {
			return x
		}
	}
	return nil
}

func (q *queue) renumber() {
	for i, x := range q.items {
		x.setPosition(i+1, len(q.items))
	}
}
