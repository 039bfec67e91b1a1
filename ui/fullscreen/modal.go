package fullscreen

import (
	tea "charm.land/bubbletea/v2"
	"github.com/elicit-dev/elicit/question"
)

// modal is one entry of the modal queue: a question of the agent or one of
// elicit's own dialogs. Only the front modal gets keys, and only when the
// arbiter says so. A modal reports its answer as a typed value; the root
// decides what it means (see resolve).
type modal interface {
	// question is the agent's question the modal asks; nil for elicit's
	// own dialogs.
	question() *question.Question
	update(msg tea.Msg) tea.Cmd
	view(width, height int) string
	done() bool
	setPosition(index, total int)
	// draft describes what the user entered so far, "" when nothing: when
	// the modal closes from outside, it is kept in the transcript.
	draft() string
}

// keyUser is a modal that says which keys mean something to it; the text
// it has no use for is typing, and goes to the prompt (focus.Unused).
type keyUser interface{ usesKey(k tea.KeyPressMsg) bool }

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
