package acpconn

import "testing"

// TestTerminalOutputWaitsForItsToolCall checks that output of a command
// that finished before the tool call naming it arrived lands under that
// tool call, in order and after the tool call's own event; and that a
// terminal no tool call names has its output given out unlinked.
func TestTerminalOutputWaitsForItsToolCall(t *testing.T) {
	c := &Conn{events: make(chan Event, 16), closed: make(chan struct{})}
	c.terms.byID = map[string]*terminal{}
	term := &terminal{id: "term-1"}
	c.terms.byID["term-1"] = term

	c.termEmit(term, TerminalOutput{TerminalID: "term-1", Chunk: "one\n"})
	c.termEmit(term, TerminalOutput{TerminalID: "term-1", Exited: true, Exit: ExitInfo{Code: 3}})
	if len(c.events) != 0 {
		t.Fatalf("%d events went out before the terminal was linked", len(c.events))
	}
	call := ToolCall{ID: "t1", Terminals: []string{"term-1"}}
	linked := c.linkTerminals(call)
	c.emit(call)
	for _, lt := range linked {
		c.release(lt)
	}
	if ev := <-c.events; ev.(ToolCall).ID != "t1" {
		t.Fatalf("first event %+v, want the tool call", ev)
	}
	for i, want := range []string{"one\n", ""} {
		o := (<-c.events).(TerminalOutput)
		if o.ToolCallID != "t1" || o.Chunk != want || o.Exited != (i == 1) {
			t.Fatalf("output %d: %+v", i, o)
		}
	}
	c.termEmit(term, TerminalOutput{TerminalID: "term-1", Chunk: "late\n"})
	if o := (<-c.events).(TerminalOutput); o.ToolCallID != "t1" || o.Chunk != "late\n" {
		t.Fatalf("output after the link: %+v", o)
	}

	lone := &terminal{id: "term-2"}
	c.termEmit(lone, TerminalOutput{TerminalID: "term-2", Chunk: "alone\n"})
	if len(c.events) != 0 {
		t.Fatal("output of a terminal no tool call names yet went out before it was given up on")
	}
	c.releaseUnlinked(lone) // no tool call will name it
	select {
	case ev := <-c.events:
		if o := ev.(TerminalOutput); o.Chunk != "alone\n" || o.ToolCallID != "" {
			t.Fatalf("unlinked output %+v", o)
		}
	default:
		t.Fatal("a terminal no tool call names kept its output")
	}
	c.termEmit(lone, TerminalOutput{TerminalID: "term-2", Chunk: "more\n"})
	if o := (<-c.events).(TerminalOutput); o.Chunk != "more\n" {
		t.Fatalf("output after giving up waiting: %+v", o)
	}
}
