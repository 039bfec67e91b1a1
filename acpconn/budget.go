package acpconn

import (
	"sync"
)

// The SDK runs every request at once, and writes each answer as soon as
// it is ready: an agent that sends 30 fs/read_text_file requests for a
// 10 MiB file at once had elicit hold 30 answers (and their JSON) together,
// 1.8 GB. The gate therefore counts what the agent's file requests may
// make elicit hold, from the moment one is read until its answer is
// written, and stops reading the agent's output while maxFSWeight is taken:
// the pipe, not elicit's memory, holds the rest.
const (
	// maxFSWeight is how much the file requests in flight may weigh.
	maxFSWeight = 64 << 20
	// readWeight is what one read may come to: its text (up to
	// MaxReadBytes), the JSON of its answer (up to six times as long), and
	// the SDK's copy of that: reads are answered one at a time.
	readWeight = maxFSWeight
)

// budget is weight taken by requests until their answers are written. The
// zero value is ready.
type budget struct {
	mu     sync.Mutex
	cond   *sync.Cond
	used   int64
	held   map[string][]int64 // by request id: the weights taken (an id may be reused)
	closed bool
}

func (b *budget) init() {
	if b.cond == nil {
		b.cond = sync.NewCond(&b.mu)
		b.held = map[string][]int64{}
	}
}

// take waits until weight w fits (a request heavier than the whole budget
// waits for an empty one) and takes it for request key; false once the
// budget was closed.
func (b *budget) take(key string, w int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.init()
	w = min(w, maxFSWeight)
	for b.used+w > maxFSWeight && !b.closed {
		b.cond.Wait()
	}
	if b.closed {
		return false
	}
	b.used += w
	b.held[key] = append(b.held[key], w)
	return true
}

// answered gives back what request key took, once its answer is written.
func (b *budget) answered(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ws := b.held[key]
	if len(ws) == 0 {
		return
	}
	b.used -= ws[0]
	if len(ws) == 1 {
		delete(b.held, key)
	} else {
		b.held[key] = ws[1:]
	}
	b.cond.Broadcast()
}

// close ends every wait: the connection is gone.
func (b *budget) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.init()
	b.closed = true
	b.cond.Broadcast()
}

// fsWeight is what a file request may make elicit hold: a read, its
// answer; a write, its content (decoded from the line, and decoded again).
func fsWeight(method string, line []byte) int64 {
	if method == "fs/read_text_file" {
		return readWeight
	}
	return 2 * int64(len(line))
}
