package fullscreen

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/question"
)

// modal is one entry of the modal queue: a question of the agent or one of
// elicit's own dialogs. Only the front modal gets keys, and only when the
// arbiter says so. A modal says what it decided as a value (an action, see
// act), never by the root looking at its type.
type modal interface {
	// question is the agent's question the modal asks; nil for elicit's
	// own dialogs.
	question() *question.Question
	// update handles a message: it returns what the dialog decided, nil
	// while it has not, and a command for its own widgets. A modal that
	// decided leaves the queue.
	update(msg tea.Msg) (action, tea.Cmd)
	view(width, height int) string
	setPosition(index, total int)
	// draft describes what the user entered so far, "" when nothing: when
	// the modal closes from outside, it is kept in the transcript.
	draft() string
	// keys are the keys it acts on, as data: its help line is drawn from
	// them, and a text key none of them takes is typing (focus.Unused).
	keys() []key.Binding
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

// pushFront puts m in front (a dialog the user asked for).
func (q *queue) pushFront(m modal) {
	q.items = append([]modal{m}, q.items...)
	q.renumber()
}

func (q *queue) remove(m modal) {
	for i, x := range q.items {
		if x == m {
			q.items = append(q.items[:i], q.items[i+1:]...)
			break
		}
	}
	q.renumber()
}

// byQuestion returns the modal that asks q.
func (q *queue) byQuestion(s *question.Question) modal {
	for _, x := range q.items {
		if s != nil && x.question() == s {
			return x
		}
	}
	return nil
}

// waits says whether a modal of type T is in the queue.
func waits[T modal](q *queue) bool {
	for _, x := range q.items {
		if _, ok := x.(T); ok {
			return true
		}
	}
	return false
}

func (q *queue) renumber() {
	for i, x := range q.items {
		x.setPosition(i+1, len(q.items))
	}
}
