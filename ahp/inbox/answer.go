package inbox

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// ErrNotWaiting says the question is not (or no longer) in the inbox.
var ErrNotWaiting = errors.New("no such question is waiting")

// Open connects to the source of the question id names ("4242-1a2b.q1") and
// returns the connection (the caller closes it) and the question, open.
// A question's id names its session's socket, so a question of a session
// that restarted is not found.
func Open(ctx context.Context, o Options, id string) (*ahp.Client, Item, error) {
	key, req, ok := SplitID(id)
	if !ok {
		return nil, Item{}, fmt.Errorf("%q is no question's id: give one elicit inbox list shows, as 4242-1a2b.q1", sanitize.Line(id))
	}
	srcs, err := o.Sources()
	var src *Source
	for i := range srcs {
		if srcs[i].Key == key {
			src = &srcs[i]
		}
	}
	if src == nil {
		if err != nil {
			return nil, Item{}, err
		}
		return nil, Item{}, fmt.Errorf("%s: %w (its session has ended)", sanitize.Line(id), ErrNotWaiting)
	}
	c, err := dial(ctx, *src, o.clientID())
	if err != nil {
		if refused(err) {
			return nil, Item{}, fmt.Errorf("%s: %w (its session has ended)", sanitize.Line(id), ErrNotWaiting)
		}
		return nil, Item{}, err
	}
	sess := &Session{Source: *src, Meta: c.SessionMeta(), Title: sanitize.Line(c.Title())}
	now := time.Now()
	for _, it := range itemsOf(sess, c.Inputs(), func(string) time.Time { return now }) {
		if it.Request.ID == req {
			return c, it, nil
		}
	}
	c.Close()
	return nil, Item{}, fmt.Errorf("%s: %w (answered or withdrawn)", sanitize.Line(id), ErrNotWaiting)
}

// ElsewhereError says another client's answer won first.
type ElsewhereError struct {
	Response string
	By       string // the client that gave it, sanitized
}

// Error says which answer won, and whose.
func (e *ElsewhereError) Error() string {
	return fmt.Sprintf("it was answered elsewhere first: %s (by %s)", e.Response, e.By)
}

// Complete dispatches done on c and waits for the host's word: nil when
// the host took this completion (the session answers its agent with it),
// the host's reason when it refused it, an *ElsewhereError when another
// answer won, ErrNotWaiting when the question was withdrawn first.
func Complete(ctx context.Context, c *ahp.Client, done ahp.InputCompleted) error {
	if err := c.Dispatch(done); err != nil {
		return err
	}
	for {
		ev, ok := c.Next(ctx)
		if !ok {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return errors.New("the connection to the session ended before it took the answer")
		}
		var in ahp.Inputs
		switch ev := ev.(type) {
		case ahp.Closed:
			return errors.New("the connection to the session ended before it took the answer")
		case ahp.Rejected:
			if a, ok := ev.Action.(ahp.InputCompleted); ok && a.RequestID == done.RequestID {
				return fmt.Errorf("the session refused the answer: %s", sanitize.Line(ev.Reason))
			}
			in = ev.Inputs
		case ahp.Changed:
			if a, ok := ev.Action.(ahp.InputCompleted); ok && a.RequestID == done.RequestID {
				if ev.Mine {
					return nil
				}
				by := ""
				if ev.Origin != nil {
					by = sanitize.Line(ev.Origin.ClientID)
				}
				return &ElsewhereError{Response: string(a.Response), By: by}
			}
			in = ev.Inputs
		case ahp.Reset:
			in = ev.Inputs
		default:
			continue
		}
		if in.Find(done.RequestID) == nil {
			return fmt.Errorf("%w (withdrawn: its turn ended)", ErrNotWaiting)
		}
	}
}
