package session

import (
	"encoding/json"
	"time"

	"github.com/elicit-dev/elicit/acpconn"
)

// Kind says what a question asks.
type Kind int

// The kinds of question.
const (
	Permission Kind = iota // session/request_permission
	Form                   // elicitation/create, form mode
	URL                    // elicitation/create, URL mode (or a legacy -32042 URL)
)

// String names the kind for notes.
func (k Kind) String() string {
	switch k {
	case Permission:
		return "permission"
	case Form:
		return "form"
	}
	return "URL"
}

// Question is one request of the agent waiting for the user.
type Question struct {
	Kind Kind
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
	held     *Outcome // an answer given while detached, sent on the re-ask
}

// IsWrite reports whether q is elicit's own question about a file write
// of the agent (a Permission whose Perm.Write is set).
func (q *Question) IsWrite() bool { return q.Kind == Permission && q.Perm.Write != nil }

// ReqID is the acpconn request the question answers (0 for a legacy URL).
func (q *Question) ReqID() uint64 {
	if q.Kind == Permission {
		return q.Perm.ID
	}
	if q.Legacy {
		return 0
	}
	return q.Elicit.ID
}

// Action is what an answer does.
type Action int

// The actions. For a form: Accept (with Content), Decline or Cancel. For a
// URL: Accept once the user consented and the URL was handed to a browser
// (or the user opened it themselves), Decline or Cancel. For a permission:
// Allow with OptionID (any option the agent offered, allow or reject), or
// Cancel.
const (
	Accept Action = iota + 1
	Decline
	Cancel
	Choose
)

// String is the action as the protocol spells it.
func (a Action) String() string {
	switch a {
	case Accept:
		return "accept"
	case Decline:
		return "decline"
	case Choose:
		return "choose"
	}
	return "cancel"
}

// Who says who answered a question.
type Who int

// Who answered.
const (
	ByUser     Who = iota // the person at the keyboard
	ByAnswers             // the --answers file (and defaults for what it leaves out)
	ByDefaults            // --accept-defaults
	ByPolicy              // the non-interactive rule (-p: cancel, reject, --approve; --decline)
	ByLimit               // too many questions waiting, or questions paused
	ByHook                // an Elicitation or ElicitationResult hook
	ByRemote              // another client of the session (elicit serve: a person on elicit attach)
)

// String says who answered, for notes.
func (w Who) String() string {
	switch w {
	case ByAnswers:
		return "--answers"
	case ByDefaults:
		return "--accept-defaults"
	case ByPolicy:
		return "non-interactive"
	case ByLimit:
		return "automatically"
	case ByHook:
		return "hook"
	case ByRemote:
		return "remote client"
	}
	return "you"
}

// Outcome is a typed answer to a question.
type Outcome struct {
	Action   Action
	Content  map[string]any // an accepted form's content
	OptionID string         // a permission's chosen option
	By       Who
	// Reason says why an automatic answer was given.
	Reason string
	hooked bool // the ElicitationResult hooks have run
	// Draft is what the user had entered in a form that was cancelled or
	// declined, one "label: value" per line; it is kept in the transcript.
	Draft string
}

// Closed is a question that ended without an answer: the agent withdrew
// it, the turn was cancelled, or the agent went away.
type Closed struct {
	Q      *Question
	Reason string
}
