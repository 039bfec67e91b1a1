package session

import (
	"encoding/json"
	"time"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/question"
)

// Question is one request of the agent waiting for the user.
type Question struct {
	Kind question.Kind
	// Perm is set for a Permission, Elicit for a Form or URL.
	Perm   acpconn.PermissionRequest
	Elicit acpconn.ElicitationRequest
	// Tool is the display title of the tool call the question belongs to
	// ("" when it belongs to none).
	Tool string
	// Legacy marks a URL from a prompt refused with -32042: there is no
	// request to answer, only a flow to follow and a prompt to retry.
	Legacy  bool
	Arrived time.Time
	// Prefill holds the answers the user gave the same form last time
	// (PrefillAt); Visits says how often the URL's site was opened.
	Prefill   map[string]json.RawMessage
	PrefillAt time.Time
	Visits    string
	// Suggestions are recent answers to text fields of the same name.
	Suggestions map[string][]string
	// Detached is set while the connection the question came on is lost
	// and a new one is being made: it stays open, and answers the agent's
	// next request for the same thing (see Core.Detach).
	Detached bool
	held     *question.Outcome // an answer given while detached, sent on the re-ask
}

// IsWrite reports whether q is elicit's own question about a file write
// of the agent (a Permission whose Perm.Write is set).
func (q *Question) IsWrite() bool { return q.Kind == question.Permission && q.Perm.Write != nil }

// ReqID is the acpconn request the question answers (0 for a legacy URL).
func (q *Question) ReqID() uint64 {
	if q.Kind == question.Permission {
		return q.Perm.ID
	}
	if q.Legacy {
		return 0
	}
	return q.Elicit.ID
}

// Closed is a question that ended without an answer: the agent withdrew
// it, the turn was cancelled, or the agent went away.
type Closed struct {
	Q      *Question
	Reason string
}
