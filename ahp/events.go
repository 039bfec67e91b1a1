package ahp

import "fmt"

// Event is what a Client reports: Changed, Rejected, Reset, Connection,
// Problem or Closed.
type Event interface{ isEvent() }

// Changed is an action the host applied (a client's, echoed with its
// origin, or the host's own); Inputs is the client's view after it.
type Changed struct {
	Action Action
	Origin *Origin
	Mine   bool // this client dispatched it
	Inputs Inputs
}

// Rejected is one of this client's actions the host refused.
type Rejected struct {
	Action Action
	Reason string
	Inputs Inputs
}

// Reset says the state was replaced by a snapshot (connect, reconnect).
type Reset struct{ Inputs Inputs }

// Connection says the connection dropped (Up false) or is back.
type Connection struct {
	Up  bool
	Err error
}

// Problem is something the client could not do that the user should
// know of: a chat the host announced could not be followed (a
// *ChatError), so its requests cannot be shown.
type Problem struct{ Err error }

// ChatError says a chat of the session could not be subscribed to.
type ChatError struct {
	Chat string
	Err  error
}

// Error names the chat and the host's reason.
func (e *ChatError) Error() string {
	return fmt.Sprintf("cannot follow the session's chat %s: %v", clip(e.Chat), e.Err)
}

// Unwrap is the host's reason.
func (e *ChatError) Unwrap() error { return e.Err }

// Closed is the last event: the client stopped (Close, or it gave up).
type Closed struct{ Err error }

func (Changed) isEvent()    {}
func (Rejected) isEvent()   {}
func (Reset) isEvent()      {}
func (Connection) isEvent() {}
func (Problem) isEvent()    {}
func (Closed) isEvent()     {}

// SessionsError says which sessions the host has when the client cannot
// pick one itself: several wait for input, or none does and there are
// several.
type SessionsError struct{ Sessions []SessionSummary }

// Error says how many sessions there are and how to choose one.
func (e *SessionsError) Error() string {
	return fmt.Sprintf("the host has %d sessions: choose one with --session", len(e.Sessions))
}
