package acpconn

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// answerCount makes an answer the agent wrote just before it exited reach
// its caller. acp-go-sdk v0.13's request wait (waitForResponse, then
// waitNotificationsUpTo for the updates sent before the answer) also gives
// up as soon as the connection ends, and picks at random when the answer
// and the end are both there: an agent that answers and exits at once had
// its answer reported as "the agent exited" now and then. acpconn owns the
// reader the SDK reads, so the end of file is held back (EOF, bounded)
// until every answer the gate handed the SDK for a request we await has
// reached its caller through sendRequest. Hand-written: the SDK has no
// hook for it.
type answerCount struct {
	mu     sync.Mutex
	cond   *sync.Cond
	passed int // answers handed to the SDK for requests we await
	picked int // of those, returned to their callers
}

func (a *answerCount) init() { a.cond = sync.NewCond(&a.mu) }

// pass counts an answer handed to the SDK.
func (a *answerCount) pass() {
	a.mu.Lock()
	a.passed++
	a.mu.Unlock()
}

// pick counts an answer its caller got.
func (a *answerCount) pick() {
	a.mu.Lock()
	a.picked++
	a.cond.Broadcast()
	a.mu.Unlock()
}

// settle waits until every answer handed on was picked up, d passed (an
// answer whose caller gave up meanwhile is never picked up), or stop is
// closed (the connection is being closed: nobody waits for answers).
func (a *answerCount) settle(d time.Duration, stop <-chan struct{}) {
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-time.After(d):
		case <-stop:
		case <-done:
			return
		}
		a.mu.Lock()
		a.passed = a.picked // stop waiting
		a.cond.Broadcast()
		a.mu.Unlock()
	}()
	a.mu.Lock()
	defer a.mu.Unlock()
	for a.picked < a.passed {
		a.cond.Wait()
	}
}

// sendRequest is acp.SendRequest on c's connection, counting the answers
// its callers get (see answerCount). Every request acpconn sends goes
// through it.
func sendRequest[T any](c *Conn, ctx context.Context, method string, params any) (T, error) {
	resp, err := acp.SendRequest[T](c.rpc, ctx, method, params)
	if err == nil || agentAnswered(ctx, err) {
		c.answers.pick()
	}
	return resp, err
}

// agentAnswered tells the agent's own error answer from the SDK's made-up
// ones (the connection ended, the context ended).
func agentAnswered(ctx context.Context, err error) bool {
	var re *acp.RequestError
	if !errors.As(err, &re) || ctx.Err() != nil {
		return false
	}
	if d, ok := re.Data.(map[string]any); ok {
		if s, _ := d["error"].(string); strings.HasPrefix(s, "peer disconnected") {
			return false
		}
	}
	return true
}
