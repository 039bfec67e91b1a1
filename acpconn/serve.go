package acpconn

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
)

// Handler answers the questions an agent asks a client: its elicitations
// and its permission requests. Serve hands it one question at a time, in
// the order the agent asked them, on a goroutine of its own, so the
// agent's other events keep flowing while a person answers. The ctx a
// method gets ends when the question is closed without its answer: the
// agent withdrew it, the turn was cancelled, the agent exited or Serve
// stopped; the request is then answered "cancel" (a permission
// "cancelled") whatever the method returns.
//
// The agent's fs/* and terminal/* requests never reach a Handler: the
// connection serves them itself, confined to Config.Dir through one
// os.Root, with the write policy of Config.Writes (see Config).
type Handler interface {
	// Elicit answers an elicitation/create: a form (q.Kind
	// question.Form, q.Schema parsed and within the restricted subset)
	// or a URL (question.URL, q.URL with its analysis in q.Report). It
	// returns the outcome as forms.Run and urlconsent.Run give it: accept
	// (with a form's content), decline or cancel. Serve checks accepted
	// content against the schema before it is sent, and answers cancel
	// when it does not fit.
	Elicit(ctx context.Context, q *question.Question) question.Outcome
	// RequestPermission answers a session/request_permission (q.Kind
	// question.Permission): accept with Option, the ID of one of
	// q.Options, or cancel. An ID that is not one of the options is
	// answered as cancelled. Under WritesAsked (without Config.AskWrite)
	// it is also asked about the agent's file writes no permission
	// covered: then q.Write is set and q.Tool.Diffs holds the write.
	RequestPermission(ctx context.Context, q *question.Question) question.Outcome
}

// EventHandler is implemented by a Handler that also wants everything
// else the agent does: streamed text (MessageChunk), tool calls, plans,
// file accesses, terminal output, notices, question.Withdrawn, TurnEnded
// and, last, AgentExited. Serve calls HandleEvent on its own goroutine, in the
// agent's order; it must return quickly (a slow one slows the agent down,
// and nothing is lost). Every string in an event is sanitized already.
type EventHandler interface {
	// HandleEvent receives one event that is not a question.
	HandleEvent(ev Event)
}

// ErrTurnRunning is returned by Prompt while an earlier turn has not ended.
var ErrTurnRunning = errors.New("acpconn: a turn is already running")

// turnCancelWait is how long Prompt, once its ctx ended, waits for the
// agent to end the cancelled turn before it returns anyway.
const turnCancelWait = 5 * time.Second

// Serve reads the connection's events until the agent exits (it returns
// nil after AgentExited) or ctx ends (it returns ctx's error): questions
// go to h, one at a time, and the rest to h's HandleEvent when h is an
// EventHandler. Serve is the connection's one reader of Events, and runs
// once per connection: call it right after Start, in a goroutine (or from
// Config.OnStart, to answer questions asked while the agent starts). When
// it stops, every question not yet answered is answered "cancel".
//
// What the connection enforces stays on: strings are sanitized, requests
// for sessions this client did not create are refused, at most MaxWaiting
// questions wait, malformed elicitations are answered -32602 before they
// reach h, and fs/* and terminal/* stay inside the session directory.
func (c *Conn) Serve(ctx context.Context, h Handler) error {
	s := c.server()
	s.mu.Lock()
	if s.h != nil {
		s.mu.Unlock()
		return errors.New("acpconn: Serve already ran on this connection")
	}
	s.h = h
	if sink, ok := h.(EventHandler); ok {
		s.sink = sink
	}
	s.mu.Unlock()
	qctx, stop := context.WithCancel(ctx)
	var asker sync.WaitGroup
	asker.Go(func() { s.ask(qctx) })
	defer func() {
		stop()
		asker.Wait()
		s.cancelAll()
		close(s.done)
	}()
	for {
		select {
		case ev := <-c.Events():
			switch ev := ev.(type) {
			case question.Asked:
				s.enqueue(ev.Q)
			case question.Withdrawn:
				s.closed(ev.ID)
				s.event(ev)
			case TurnEnded:
				s.event(ev)
				s.turnEnded(ev)
			case AgentExited:
				s.mu.Lock()
				s.exit = &ev
				s.mu.Unlock()
				s.event(ev)
				return nil
			default:
				s.event(ev)
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Prompt sends one prompt turn to the session and waits for its end;
// meanwhile the Serve running on the connection hands the turn's
// questions to its Handler and its events to its EventHandler. The
// returned TurnEnded says why the turn ended (StopReason "end_turn",
// "cancelled", ...); err is the turn's own error, if any. A legacy agent's
// -32042 answer ends the turn with URLNeeded set: complete those URL
// elicitations (Handler.Elicit can ask about each), then prompt again.
//
// Prompt returns only after Serve has handed every event of the turn to
// the EventHandler, so the reply is complete when it returns. It needs
// Serve on the connection (started before or just after it: without one
// nothing ends the turn, and Prompt waits for ctx). When ctx ends first,
// the turn is cancelled as the protocol asks (CancelTurn) and Prompt waits
// a few seconds for the agent to end it, then returns ctx's error. A
// Prompt before NewSession, or while an earlier turn has not ended, fails
// at once.
func (c *Conn) Prompt(ctx context.Context, text string) (TurnEnded, error) {
	s := c.server()
	if c.SessionID() == "" {
		return TurnEnded{}, errors.New("acpconn: no session: call NewSession (or OpenSession) first")
	}
	ended := make(chan TurnEnded, 1)
	if !s.startTurn(ended) {
		return TurnEnded{}, ErrTurnRunning
	}
	c.StartPrompt(text)
	select {
	case te := <-ended:
		return te, te.Err
	case <-s.done:
		select {
		case te := <-ended: // the turn ended just before Serve stopped
			return te, te.Err
		default:
		}
		return TurnEnded{}, s.stopped()
	case <-ctx.Done():
	}
	err := c.CancelTurn()
	t := time.NewTimer(turnCancelWait)
	defer t.Stop()
	select {
	case te := <-ended:
		return te, ctx.Err()
	case <-s.done:
	case <-t.C:
	}
	return TurnEnded{}, errors.Join(ctx.Err(), err)
}

// server is the state of a connection's Serve: the questions waiting for
// the Handler, the one being asked, and the Prompt waiting for its turn.
// It exists from the first Serve or Prompt, whichever comes first, so a
// Prompt never races with the Serve started just before it.
type server struct {
	c    *Conn
	wake chan struct{} // a question was queued
	done chan struct{} // closed when Serve has stopped

	mu     sync.Mutex
	h      Handler      // set by Serve
	sink   EventHandler // h, when it is one
	queue  []*question.Question
	asking map[uint64]context.CancelFunc // the question being asked, by id
	turn   chan TurnEnded                // the Prompt waiting, nil when none
	exit   *AgentExited
}

// server returns the connection's server, making it on first use.
func (c *Conn) server() *server {
	if s := c.serving.Load(); s != nil {
		return s
	}
	c.serving.CompareAndSwap(nil, &server{c: c, wake: make(chan struct{}, 1), done: make(chan struct{}), asking: map[uint64]context.CancelFunc{}})
	return c.serving.Load()
}

// event hands a non-question event to the EventHandler, if any.
func (s *server) event(ev Event) {
	if s.sink != nil {
		s.sink.HandleEvent(ev)
	}
}

// enqueue queues a question for the Handler.
func (s *server) enqueue(q *question.Question) {
	s.mu.Lock()
	s.queue = append(s.queue, q)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// closed forgets a question the connection has answered without the
// Handler: it is dropped from the queue, or its ctx ends if it is being
// asked.
func (s *server) closed(id uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = slices.DeleteFunc(s.queue, func(q *question.Question) bool { return q.ID == id })
	if cancel := s.asking[id]; cancel != nil {
		cancel()
	}
}

// ask hands the queued questions to the Handler, one at a time, until ctx
// ends.
func (s *server) ask(ctx context.Context) {
	for {
		s.mu.Lock()
		if len(s.queue) == 0 {
			s.mu.Unlock()
			select {
			case <-s.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		q := s.queue[0]
		s.queue = s.queue[1:]
		qctx, cancel := context.WithCancel(ctx)
		s.asking[q.ID] = cancel
		s.mu.Unlock()

		s.answer(qctx, q)

		s.mu.Lock()
		delete(s.asking, q.ID)
		s.mu.Unlock()
		cancel()
		if ctx.Err() != nil {
			return
		}
	}
}

// answer asks the Handler one question and sends its answer, checked.
func (s *server) answer(ctx context.Context, q *question.Question) {
	if q.Kind == question.Permission {
		out := s.h.RequestPermission(ctx, q)
		switch {
		case ctx.Err() != nil: // closed meanwhile (then this answer is dropped) or Serve stops
			out = question.Outcome{Action: question.Cancel}
		case out.Action == question.Accept && !slices.ContainsFunc(q.Options, func(o question.Option) bool { return o.ID == out.Option }):
			s.event(Notice{Text: fmt.Sprintf("the handler chose permission option %q, which the agent did not offer: answered cancelled", sanitize.Summary(out.Option, 40)), Error: true})
			out = question.Outcome{Action: question.Cancel}
		}
		s.c.Answer(q, out)
		return
	}
	out := s.h.Elicit(ctx, q)
	switch {
	case ctx.Err() != nil: // closed meanwhile (then this answer is dropped) or Serve stops
		out = question.Outcome{Action: question.Cancel}
	case !out.Action.Valid():
		s.event(Notice{Text: fmt.Sprintf("the handler answered an elicitation with %q: answered cancel", sanitize.Summary(string(out.Action), 40)), Error: true})
		out = question.Outcome{Action: question.Cancel}
	case out.Action == question.Accept && q.Kind == question.Form:
		out = out.Reply(q.Kind)
		if err := q.Schema.Check(out.Content); err != nil {
			s.event(Notice{Text: "the handler's answer to a form does not fit its schema (" + sanitize.Line(err.Error()) + "): answered cancel", Error: true})
			out = question.Outcome{Action: question.Cancel}
		}
	}
	s.c.Answer(q, out)
}

// cancelAll answers every question still queued "cancel", once the
// Handler will not be asked any more (the one being asked was answered
// "cancel" as its ctx ended).
func (s *server) cancelAll() {
	s.mu.Lock()
	left := s.queue
	s.queue = nil
	s.mu.Unlock()
	for _, q := range left {
		s.c.Answer(q, question.Outcome{Action: question.Cancel})
	}
}

// startTurn records the Prompt waiting for the next TurnEnded; it fails
// while another one waits.
func (s *server) startTurn(ch chan TurnEnded) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.turn != nil {
		return false
	}
	s.turn = ch
	return true
}

// turnEnded hands the end of a turn to the Prompt waiting for it.
func (s *server) turnEnded(te TurnEnded) {
	s.mu.Lock()
	ch := s.turn
	s.turn = nil
	s.mu.Unlock()
	if ch != nil {
		ch <- te
	}
}

// stopped says why Serve is no longer running, for a Prompt it left.
func (s *server) stopped() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exit != nil {
		return fmt.Errorf("session/prompt: the agent exited (%s)", s.exit.Exit)
	}
	return errors.New("session/prompt: Serve stopped before the turn ended")
}
