package acpconn

import (
	"runtime"
	"testing"
)

func init() {
	// answer-exit answers the prompt and exits at once, as many agents
	// do when their input closes or their work is done.
	scripts["answer-exit"] = func(a *scripted) {
		p := a.prompt()
		a.endTurn(p, "end_turn")
	}
	// updates-answer-exit sends updates, answers and exits: the SDK waits
	// for the updates sent before an answer before it returns it.
	scripts["updates-answer-exit"] = func(a *scripted) {
		p := a.prompt()
		for range 200 {
			a.say("x")
		}
		a.endTurn(p, "end_turn")
	}
}

// TestAnswerThenExit: an answer the agent wrote just before it exited
// reaches its caller. The SDK's request wait picks at random between an
// answer that arrived and the connection's end when both are ready, so it
// reported "the agent exited" for about one such turn in two on a single
// processor, where the SDK's reader goes on to the end of file before the
// caller runs. (One processor makes the window wide; under load CI hit it
// with two.)
func TestAnswerThenExit(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for i := range 40 {
		script := []string{"answer-exit", "updates-answer-exit"}[i%2]
		c := start(t, script, Config{})
		c.StartPrompt("go")
		end, _ := until[TurnEnded](t, c)
		if end.Err != nil || end.StopReason != "end_turn" {
			t.Fatalf("turn %d (%s): %q %v (the answer was written before the agent exited)", i, script, end.StopReason, end.Err)
		}
		c.Close()
	}
}
