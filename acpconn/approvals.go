package acpconn

import (
	"context"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// The approval ledger binds the agent's fs/write_text_file to what the
// user approved. A permission request whose tool call shows diffs
// approves exactly those edits: until the tool call ends (or the turn
// does), a write to one of its files must produce exactly the approved
// new text, or it is refused. A rejected (or cancelled) permission refuses
// the writes to every file its tool call names, diffs and locations. A
// write to a file whose permission is still open waits for the answer.
// fs/write_text_file names no tool call, so a write is matched to the
// latest permission for its path.

// approvalState is where a permission request stands.
type approvalState int

const (
	approvalOpen    approvalState = iota // not answered yet
	approvalAllowed                      // an allow option was chosen
	approvalRefused                      // rejected, cancelled or withdrawn
)

// edit is one diff of a permission, exactly as the agent sent it.
type edit struct{ old, new string }

// approval is one permission request's word on the files its tool call
// names.
type approval struct {
	session, toolCall string
	title             string            // the tool call's title, for messages (sanitized)
	edits             map[string][]edit // the diffs shown, by path relative to the session directory
	named             map[string]bool   // every path the call names: diffs and locations
	bytes             int               // the text held in edits

	state  approvalState // guarded by approvals.mu
	choice string        // the option chosen (its name, sanitized)
	done   chan struct{} // closed once answered
}

// pathKey is a file of a session.
type pathKey struct{ session, rel string }

// Bounds on what the ledger holds: an agent could ask for thousands of
// permissions with large diffs in one turn.
const (
	maxApprovals     = 1024
	maxApprovalBytes = 32 << 20
)

// approvals is the ledger of one connection.
type approvals struct {
	mu     sync.Mutex
	cond   *sync.Cond
	byPath map[pathKey]*approval
	order  []*approval // oldest first, for eviction
	held   int         // bytes held by the approvals in order

	// The SDK hands each request to a goroutine of its own, so a write
	// sent after a permission request can be handled before it. passed
	// counts the permission requests the gate let through, in stream
	// order; counted those the handler has registered. A write waits
	// until every permission passed before it is registered (settle).
	passed, counted uint64
	stopped         bool
	holding         int // writes waiting for an answer (see waitAnswer)
}

func newApprovals(stop <-chan struct{}) *approvals {
	a := &approvals{byPath: map[pathKey]*approval{}}
	a.cond = sync.NewCond(&a.mu)
	go func() {
		<-stop
		a.mu.Lock()
		a.stopped = true
		a.cond.Broadcast()
		a.mu.Unlock()
	}()
	return a
}

// passedOne counts a permission request the gate let through (a gate
// without a connection, in benchmarks, has no ledger).
func (a *approvals) passedOne() {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.passed++
	a.mu.Unlock()
}

// countOne counts a permission request registered (or refused) by the
// handler.
func (a *approvals) countOne() {
	a.mu.Lock()
	a.counted++
	a.cond.Broadcast()
	a.mu.Unlock()
}

// settle waits, at most timeout, until every permission request passed so
// far is registered.
func (a *approvals) settle(timeout time.Duration) {
	a.mu.Lock()
	target := a.passed
	done := a.counted >= target || a.stopped
	a.mu.Unlock()
	if done {
		return
	}
	expired := false
	t := time.AfterFunc(timeout, func() {
		a.mu.Lock()
		expired = true
		a.cond.Broadcast()
		a.mu.Unlock()
	})
	defer t.Stop()
	a.mu.Lock()
	for a.counted < target && !a.stopped && !expired {
		a.cond.Wait()
	}
	a.mu.Unlock()
}

// registerApproval records the files permission request p names; nil when it
// names none inside the session directory.
func (c *Conn) registerApproval(p acp.RequestPermissionRequest) *approval {
	ap := &approval{session: string(p.SessionId), toolCall: string(p.ToolCall.ToolCallId),
		edits: map[string][]edit{}, named: map[string]bool{}, done: make(chan struct{})}
	if p.ToolCall.Title != nil {
		ap.title = sanitize.Summary(*p.ToolCall.Title, 60)
	}
	for _, tc := range p.ToolCall.Content {
		d := tc.Diff
		if d == nil {
			continue
		}
		rel, err := c.relPath(d.Path)
		if err != nil {
			continue // a write there is refused anyway
		}
		old := ""
		if d.OldText != nil {
			old = *d.OldText
		}
		ap.edits[rel] = append(ap.edits[rel], edit{old, d.NewText})
		ap.named[rel] = true
		ap.bytes += len(old) + len(d.NewText)
	}
	for _, l := range p.ToolCall.Locations {
		if rel, err := c.relPath(l.Path); err == nil {
			ap.named[rel] = true
		}
	}
	if len(ap.named) == 0 {
		return nil
	}
	c.approvals.add(ap)
	return ap
}

// add makes ap the word on each file it names, letting the oldest
// answered approvals go beyond the bounds.
func (a *approvals) add(ap *approval) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for rel := range ap.named {
		a.byPath[pathKey{ap.session, rel}] = ap
	}
	a.order = append(a.order, ap)
	a.held += ap.bytes
	for i := 0; i < len(a.order) && (len(a.order) > maxApprovals || a.held > maxApprovalBytes); {
		if old := a.order[i]; old.state != approvalOpen && old != ap {
			a.dropLocked(i)
			continue
		}
		i++
	}
}

// dropLocked forgets a.order[i].
func (a *approvals) dropLocked(i int) {
	ap := a.order[i]
	a.order = append(a.order[:i], a.order[i+1:]...)
	a.held -= ap.bytes
	for rel := range ap.named {
		k := pathKey{ap.session, rel}
		if a.byPath[k] == ap {
			delete(a.byPath, k)
		}
	}
}

// answer records the user's word on ap: allowed when the chosen option is
// an allow option.
func (a *approvals) answer(ap *approval, allowed bool, choice string) {
	if ap == nil {
		return
	}
	a.mu.Lock()
	if ap.state == approvalOpen {
		ap.state, ap.choice = approvalRefused, choice
		if allowed {
			ap.state = approvalAllowed
		}
		close(ap.done)
	}
	a.mu.Unlock()
}

// lookup is the latest approval for a file, and where it stands.
func (a *approvals) lookup(session, rel string) (*approval, approvalState) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ap := a.byPath[pathKey{session, rel}]
	if ap == nil {
		return nil, 0
	}
	return ap, ap.state
}

// ended forgets the answered approvals of a tool call that finished (or,
// with toolCall "", of every tool call of the session: the turn ended).
func (a *approvals) ended(session, toolCall string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := 0; i < len(a.order); {
		ap := a.order[i]
		if ap.session == session && (toolCall == "" || ap.toolCall == toolCall) && ap.state != approvalOpen {
			a.dropLocked(i)
			continue
		}
		i++
	}
}

// toolUpdate ends the approvals of a tool call the agent reports
// completed or failed.
func (c *Conn) toolUpdate(session string, ev Event) {
	if tc, ok := ev.(ToolCall); ok && (tc.Status == "completed" || tc.Status == "failed") {
		c.approvals.ended(session, tc.ID)
	}
}

// expected is the text the approved edits make of a file holding cur:
// each edit replaces the whole text (its old text is the file) or one
// occurrence of its old text; ok is false when an edit does not apply.
func expected(cur string, edits []edit) (string, bool) {
	for _, e := range edits {
		switch {
		case e.old == cur:
			cur = e.new
		case e.old != "" && strings.Count(cur, e.old) == 1:
			cur = strings.Replace(cur, e.old, e.new, 1)
		default:
			return "", false
		}
	}
	return cur, true
}

// matches reports whether writing content to rel is what ap approved:
// the last edit's new text exactly (what the diff showed as the file
// after), or what the edits make of the file as it is now.
func (ap *approval) matches(rel, content string, current func() (string, bool)) (bool, string) {
	edits := ap.edits[rel]
	last := edits[len(edits)-1].new
	if content == last {
		return true, last
	}
	if cur, ok := current(); ok {
		if want, ok := expected(cur, edits); ok {
			return content == want, want
		}
	}
	return false, last
}

// waitAnswer holds a write until ap is answered; false when ctx ended
// first.
func (a *approvals) waitAnswer(ctx context.Context, ap *approval) bool {
	a.mu.Lock()
	a.holding++
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.holding--
		a.mu.Unlock()
	}()
	select {
	case <-ap.done:
		return true
	case <-ctx.Done():
		return false
	}
}

// heldWrites is how many writes wait for a permission's answer.
func (a *approvals) heldWrites() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.holding
}
