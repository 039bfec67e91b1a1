package question

import "encoding/json"

// Action is what an answer does, spelt as ACP, MCP and AHP spell it: the
// one declaration of accept, decline and cancel.
type Action string

// The three actions. Decline is a person's explicit no (or their standing
// --decline); cancel says that nobody chose.
const (
	Accept  Action = "accept"
	Decline Action = "decline"
	Cancel  Action = "cancel"
)

// Valid reports whether a is one of the three actions.
func (a Action) Valid() bool { return a == Accept || a == Decline || a == Cancel }

// By says who answered a question.
type By int

// Who answered.
const (
	ByPerson   By = iota // the person at the keyboard
	ByAnswers            // the --answers file (and defaults for what it leaves out)
	ByDefaults           // --accept-defaults
	ByRule               // the no-person rule (-p: cancel, reject, --approve; --decline)
	ByLimit              // too many questions waiting, or questions paused
	ByHook               // an Elicitation or ElicitationResult hook
	ByRemote             // another client of the session (a person on elicit attach)
	// ByPermissionRule is a permission rule the user wrote (package
	// permissions): Outcome.Rule names it.
	ByPermissionRule
)

// String says who answered, for notes.
func (b By) String() string {
	switch b {
	case ByAnswers:
		return "--answers"
	case ByDefaults:
		return "--accept-defaults"
	case ByRule:
		return "non-interactive"
	case ByLimit:
		return "automatically"
	case ByHook:
		return "hook"
	case ByRemote:
		return "remote client"
	case ByPermissionRule:
		return "permission rule"
	}
	return "you"
}

// Outcome is the answer to a question, passed on unchanged from where it
// was decided (a form, a consent screen, a rule) to the source's reply.
//
// A Form: Accept with Content (typed as the schema says, optional fields
// left empty omitted), Decline or Cancel. A URL: Accept once the person
// consented and the browser was started (or they opened it themselves),
// Decline or Cancel. A Permission: Accept with Option, the id of the
// option chosen (allow or reject alike), or Cancel.
type Outcome struct {
	Action  Action
	Content map[string]any
	Option  string
	By      By
	// Reason says why, when nobody at the keyboard answered.
	Reason string
	// Rule is the permission rule that decided (By is ByPermissionRule)
	// and where it is written: `Bash(npm test:*) in /path/config.toml:3`.
	Rule string
	// Draft is what was typed in a form closed without Accept, one
	// "label: value" per line, for the transcript.
	Draft string
}

// Reply is o as the reply to a question of kind k carries it: a Form's
// Accept with its Content (an empty map when nil), a URL's Accept with no
// content, a Permission's Accept with its Option, Decline and Cancel with
// nothing but the action, and any other action as Cancel. Who answered
// and why stay as they are.
func (o Outcome) Reply(k Kind) Outcome {
	switch {
	case !o.Action.Valid():
		o.Action = Cancel
	case o.Action == Accept && k == Form && o.Content == nil:
		o.Content = map[string]any{}
	}
	if o.Action != Accept || k != Form {
		o.Content = nil
	}
	if k != Permission || o.Action != Accept {
		o.Option = ""
	}
	return o
}

// MarshalJSON writes the outcome as an elicitation's result, as ACP and
// MCP spell it: {"action":"accept","content":{...}} (content when it is
// not nil: Reply gives a form's accept an empty object), else
// {"action":"decline"} or {"action":"cancel"}. Who answered and why stay
// out: they are for notes, not the wire.
func (o Outcome) MarshalJSON() ([]byte, error) {
	if o.Action != Accept || o.Content == nil {
		return json.Marshal(struct {
			Action Action `json:"action"`
		}{o.Action})
	}
	return json.Marshal(struct {
		Action  Action         `json:"action"`
		Content map[string]any `json:"content"`
	}{o.Action, o.Content})
}
