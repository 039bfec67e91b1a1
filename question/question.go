package question

import (
	"encoding/json"
	"time"

	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// Kind says what a question asks.
type Kind int

// The kinds of question.
const (
	Permission Kind = iota // a tool call to allow: pick one of Options
	Form                   // a form: Schema
	URL                    // a URL to open: URL and its Report
)

// String names the kind for notes: "permission", "form" or "URL".
func (k Kind) String() string {
	switch k {
	case Permission:
		return "permission"
	case Form:
		return "form"
	}
	return "URL"
}

// From says where a question belongs. Ids are exact, as the source sent
// them (they go back to it): pass them through a sanitizer to show them.
type From struct {
	Session  string // the session id ("" when the question belongs to none)
	ToolCall string // the tool call id ("" when none)
	// Tool is the tool call's display title, sanitized ("" when the
	// source does not know it: the session core fills it from the
	// ToolTitle events it has seen).
	Tool string
	// RequestID is the request an elicitation belongs to outside any
	// session (ACP's requestId: a string id's value or a number's JSON
	// text).
	RequestID string
	// Agent names the agent asking, sanitized, where one session core
	// holds the questions of many (the inbox); "" for a source's own.
	Agent string
}

// Question is one question of a source, waiting for an answer. Every
// string but ids and URL went through the source's sanitizer.
type Question struct {
	// ID is the source's handle on the request the question answers
	// (Source.Answer names it); 0 means there is nothing to answer: a URL
	// from a legacy -32042 refusal, which is a flow to follow and a call
	// to retry.
	ID      uint64
	Kind    Kind
	From    From
	Message string
	// Arrived is when the session core took the question.
	Arrived time.Time

	// A Form: its schema, parsed once by the source, and the schema as
	// sent (for hooks).
	Schema    *schema.Schema
	RawSchema json.RawMessage

	// A URL: exactly as sent (a consent screen escapes it), the flow's
	// id, and the URL's analysis.
	URL           string
	ElicitationID string
	Report        urlcheck.Report

	// A Permission: the tool call it is about and the options to pick
	// from; Write is set when elicit asks itself about a file write.
	Tool    *Tool
	Options []Option
	Write   *Write

	// Memory is what the session remembered for the person who answers,
	// filled before the question is shown.
	Memory Memory
}

// Tool is the tool call a permission is about, as the agent last
// described it.
type Tool struct {
	ID        string // exact
	Title     string
	Kind      string // read, edit, execute, ...
	Status    string
	Locations []string
	Content   []string // text, diffs and terminals summarised as text
	Diffs     []Diff   // the call's file edits in full
	Terminals []string // the ids of the terminals whose output the call shows (exact)

	// What permission rules read (package permissions): the agent's own
	// name for the tool, where it says one (Claude Code's "Bash" or
	// "mcp__github__create_issue", qwen's "run_shell_command"); the
	// call's raw input, decoded from JSON as the agent sent it (nil when
	// none); and every file the call names (its diffs' and locations'
	// paths), exact. None of them is sanitized: pass them through a
	// sanitizer to show them.
	Name  string
	Input any
	Files []string
	// Risk says why a file the call changes runs code later (git's hooks
	// and config, .envrc, shell rc files), when one does and --allow-write
	// does not name it: such a call is never allowed without a person.
	// RiskPath is that file, relative to the session directory when
	// inside it, made safe to show.
	Risk, RiskPath string
}

// Diff is a file edit: the path and the whole text before (empty for a
// new file) and after.
type Diff struct{ Path, Old, New string }

// Option is one answer a permission offers. ID is exact; Kind is
// allow_once, allow_always, reject_once or reject_always.
type Option struct{ ID, Name, Kind string }

// Write marks a permission that elicit asks itself, about a file write of
// the agent: no permission covered it, or the file runs code later.
type Write struct {
	Path string // relative to the session directory, made safe to show
	Risk string // why the file runs code later ("" when it does not)
	Why  string // why elicit asks
}

// Memory is what the session remembered of a question before a person
// sees it: a form's answers last time and recent answers to its text
// fields, and how often the URL's site was opened.
type Memory struct {
	Prefill     map[string]json.RawMessage
	PrefillAt   time.Time
	Suggestions map[string][]string
	Visits      string
}
