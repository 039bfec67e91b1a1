package question

// The events below are what a source says about its questions. A source
// sends them in its one ordered event stream, among its own events, as
// they are; the session core reads them there (session.Core.Apply), and a
// front end may draw them too.

// Asked is a new question.
type Asked struct{ Q *Question }

// Withdrawn says the question with ID closed without an answer: the agent
// withdrew it, the turn was cancelled, or the agent went away.
type Withdrawn struct {
	ID     uint64
	Reason string
}

// FlowComplete says the out-of-band interaction of a URL question
// finished. Unknown and repeated ids are sent too; the core ignores them.
type FlowComplete struct{ ElicitationID string }

// URLsNeeded is a call (a prompt, a tool call) refused until the URL
// flows of Qs complete (a legacy -32042): each is asked with ID 0, and
// the call is offered again once all are complete.
type URLsNeeded struct{ Qs []*Question }

// Gone says the source ended: the agent exited or the connection to it
// ended. Lost is set when a remote agent's connection dropped without
// elicit ending it: its session may be taken up again on a new one.
type Gone struct{ Lost bool }

// ToolTitle names a tool call, for questions that belong to it.
type ToolTitle struct{ ID, Title string }
