package ahp

import (
	"context"
	"sync"
)

// mailbox is an unbounded-until-max queue with a wake-up channel: the host
// puts into it under its lock without ever blocking, and one reader takes
// from it. Past max items the oldest are dropped (counted in Dropped), so a
// reader that stopped reading cannot make the host hold without bound.
type mailbox[T any] struct {
	mu      sync.Mutex
	items   []T
	max     int
	dropped int
	ready   chan struct{}
	closed  bool
}

func newMailbox[T any](max int) *mailbox[T] {
	return &mailbox[T]{max: max, ready: make(chan struct{}, 1)}
}

func (m *mailbox[T]) put(v T) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	if len(m.items) >= m.max {
		m.items = m.items[1:]
		m.dropped++
	}
	m.items = append(m.items, v)
	m.mu.Unlock()
	select {
	case m.ready <- struct{}{}:
	default:
	}
}

func (m *mailbox[T]) close() {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	select {
	case m.ready <- struct{}{}:
	default:
	}
}

// next waits for the next item; ok is false once the mailbox is closed and
// empty, or ctx is done.
func (m *mailbox[T]) next(ctx context.Context) (v T, ok bool) {
	for {
		m.mu.Lock()
		if len(m.items) > 0 {
			v = m.items[0]
			m.items = m.items[1:]
			m.mu.Unlock()
			return v, true
		}
		closed := m.closed
		m.mu.Unlock()
		if closed {
			return v, false
		}
		select {
		case <-m.ready:
		case <-ctx.Done():
			return v, false
		}
	}
}
