// Package ahp speaks the input requests of the Agent Host Protocol (AHP):
// questions that live in shared session state, answer drafts every attached
// client sees as they are typed, and a first completion (accept, decline,
// cancel) that answers the agent. It holds the protocol's types, a pure
// reducer, a host that validates what clients dispatch, and a WebSocket
// transport (server and client). It imports no terminal library.
//
// Both protocol generations are spoken: the current one (1.x: chat/*
// actions, open requests in the active turn's responseParts) and the
// source document's (0.x: session/* actions, SessionState.inputRequests).
// A Generation, picked from the negotiated version, hides the difference:
// the host and the client work on neutral actions (InputRequested,
// InputAnswerChanged, InputCompleted, TurnEnded).
//
//	h := ahp.NewHost(ahp.HostOptions{Title: "my agent"})
//	srv, _ := ahp.Listen(ahp.ServerOptions{Addr: "127.0.0.1:0", Token: tok}, h)
//	go srv.Serve()
//	h.Request(ahp.Request{ID: "r1", Message: "Name?", Questions: qs}) // every client sees it
//	c, _ := h.NextCompletion(ctx) // the first valid completion: answer the agent with it
package ahp
