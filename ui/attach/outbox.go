package attach

import (
	"sync"

	"github.com/elicit-dev/elicit/ahp"
)

// outbox dispatches a source's actions in order, on a goroutine of its
// own: the screen's loop never waits for the network (Dispatch writes to
// the connection). Hand-written: it is a queue of a few lines.
type outbox struct {
	c      Conn
	mu     sync.Mutex
	items  []ahp.Action
	closed bool
	wake   chan struct{}
	done   chan struct{}
}

func newOutbox(c Conn) *outbox {
	o := &outbox{c: c, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go o.run()
	return o
}

// put queues a, never waiting.
func (o *outbox) put(a ahp.Action) {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return
	}
	o.items = append(o.items, a)
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

func (o *outbox) run() {
	defer close(o.done)
	for {
		o.mu.Lock()
		items, closed := o.items, o.closed
		o.items = nil
		o.mu.Unlock()
		for _, a := range items {
			_ = o.c.Dispatch(a) // sent again by the client after a reconnect
		}
		if closed && len(items) == 0 {
			return
		}
		if len(items) == 0 {
			<-o.wake
		}
	}
}

// close sends what waits, then stops.
func (o *outbox) close() {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return
	}
	o.closed = true
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
	<-o.done
}
