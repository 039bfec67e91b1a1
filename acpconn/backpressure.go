package acpconn

import "io"

// Backpressure wraps an agent's stdout for any client built on
// acp.NewConnection: call Release once for every handled inbound message
// that has a method (at the end of handling a notification, at the start
// of a request that waits for the user). Reading then stops while
// too many wait, and end of input waits until all were handled, so neither
// a flood of notifications nor an agent that answers and exits loses
// anything. Close stop to end all waiting.
type Backpressure struct{ t *throttledReader }

// NewBackpressure wraps r. Nothing is read until Open: call it after the
// connection's SetLogger, which races with the SDK's reader otherwise.
func NewBackpressure(r io.Reader, stop <-chan struct{}) *Backpressure {
	return &Backpressure{t: newThrottledReader(r, stop, nil)}
}

// Open lets reading begin.
func (b *Backpressure) Open() { b.t.open() }

// Read implements io.Reader for the SDK.
func (b *Backpressure) Read(p []byte) (int, error) { return b.t.Read(p) }

// Release counts one message with a method as handled.
func (b *Backpressure) Release() { b.t.release() }
