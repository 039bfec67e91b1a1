package line

import (
	"context"
	"fmt"
	"sync"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/share"
)

// The line session as one client among others (Options.Share: the user's
// inbox, and elicit serve's clients): its questions are mirrored by the
// share (the core's observer), and another client's answer ends the
// question being asked here at once, as if input had ended, with a line
// saying where it was answered. Drafts are not shown here: a line prompt
// has nothing to show them in.

// shared links the session to its share: the answers other clients gave,
// and the question being asked now.
type shared struct {
	mu      sync.Mutex
	answers map[*question.Question]share.Answer
	asking  *question.Question
	stop    chan struct{} // closed when asking is answered elsewhere
}

// maxHeld bounds the answers kept for questions not asked yet.
const maxHeld = 64

// follow reads what other clients did until ctx ends.
func (k *shared) follow(ctx context.Context, s *share.Share) {
	for {
		v, ok := s.Next(ctx)
		if !ok {
			return
		}
		a, isAnswer := v.(share.Answer)
		if !isAnswer {
			continue
		}
		k.mu.Lock()
		if len(k.answers) >= maxHeld {
			clear(k.answers) // answers to questions answered here first
		}
		k.answers[a.Q] = a
		if a.Q == k.asking && k.stop != nil {
			close(k.stop)
			k.stop = nil
		}
		k.mu.Unlock()
	}
}

// take is the answer another client gave q, if any.
func (k *shared) take(q *question.Question) (share.Answer, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	a, ok := k.answers[q]
	delete(k.answers, q)
	return a, ok
}

// begin marks q as asked; the channel is closed once it is answered
// elsewhere.
func (k *shared) begin(q *question.Question) <-chan struct{} {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.asking, k.stop = q, make(chan struct{})
	return k.stop
}

// end marks that nothing is asked.
func (k *shared) end() {
	k.mu.Lock()
	k.asking, k.stop = nil, nil
	k.mu.Unlock()
}

// askShared asks q here unless another client answered it, and ends the
// asking when one does: the other client's answer is then q's. keep is
// true for "always allow here" (the extra choice of a permission).
func (l *lineSession) askShared(q *question.Question) (out question.Outcome, keep bool) {
	k := l.shared
	if k == nil {
		return l.ask(q)
	}
	if a, ok := k.take(q); ok {
		return l.answeredElsewhere(a), false
	}
	l.in.stop = k.begin(q)
	out, keep = l.ask(q)
	l.in.stop = nil
	k.end()
	if a, ok := k.take(q); ok {
		return l.answeredElsewhere(a), false
	}
	return out, keep
}

// answeredElsewhere says where q was answered, and returns the answer.
func (l *lineSession) answeredElsewhere(a share.Answer) question.Outcome {
	fmt.Fprintf(l.o.Out, "\nNote: answered %s: %s\n", a.Where(), a.Out.Action)
	return a.Out
}
