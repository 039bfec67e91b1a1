package line

import (
	"cmp"
	"context"
	"fmt"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/session"
)

// changes prints the core's notes and asks its questions, one at a time.
func (l *lineSession) changes(ch session.Changes) {
	for {
		for _, n := range ch.Notes {
			fmt.Fprintln(l.o.Out, "\nNote:", n.Text)
		}
		for _, cl := range ch.Closed {
			fmt.Fprintf(l.o.Out, "\nNote: a question was closed: %s\n", sanitize.Line(cl.Reason))
		}
		next := session.Changes{}
		if l.running && (ch.Send != "" || ch.Retry != "") {
			// The -32042 turn's own end can come just after its flows
			// completed: the retry waits for the turn's end.
			l.later.Send, l.later.Retry = cmp.Or(ch.Send, l.later.Send), cmp.Or(ch.Retry, l.later.Retry)
		} else if ch.Send != "" {
			l.send(ch.Send)
		} else if ch.Retry != "" && l.confirm("The URL flows the prompt needed are complete. Type retry to send it again, Enter to skip: ", "retry") {
			l.send(ch.Retry)
		}
		if q := l.core.Front(); q != nil {
			next = l.core.Settle(context.Background(), l.answer(q))
		}
		if len(next.Notes) == 0 && next.Retry == "" && next.Send == "" && l.core.Front() == nil {
			return
		}
		ch = next
	}
}

// dropLater says that a retry waiting for the running turn's end will not
// be sent, and why: a retry is never dropped without a word.
func (l *lineSession) dropLater(why string) {
	if p := cmp.Or(l.later.Send, l.later.Retry); p != "" {
		fmt.Fprintf(l.o.Out, "\nNot sent again (%s): %s\n", why, sanitize.Line(p))
	}
	l.later = session.Changes{}
}
