package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/mcpconn"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/session"
)

// mcpCall is one run of `elicit mcp call`.
type mcpCall struct {
	o       MCPOptions
	ctx     context.Context
	c       *mcpconn.Conn
	core    *session.Core
	title   string
	calls   int // calls made (a -32042 retry is the second)
	results chan callDone
	answers chan answered
	asking  *question.Question // the question being asked, if any
	gone    bool               // the server withdrew it meanwhile
	stopAsk context.CancelFunc // ends the asking when the server withdraws it
	flowT   *time.Timer        // the wait for -32042 flows' completion
	refused error              // the call's -32042 error, while its URL flows may lead to a retry
	code    int
	done    bool
}

type callDone struct {
	res *mcp.CallToolResult
	err error
}

type answered struct {
	q   *question.Question
	out question.Outcome
}

// callKey names the call for the core's -32042 retry.
const callKey = "call"

// RunMCPCall calls one tool and prints its text content on stdout: exit 0,
// or 1 with the tool's error on stderr. The server's elicitations are
// asked (Person) or answered by the options' rules, each decision said on
// stderr.
func RunMCPCall(o MCPOptions) int {
	o.defaults()
	defer collectLessOften()()
	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	c, code := connectMCP(ctx, o)
	if c == nil {
		return code
	}
	defer c.Close()
	r := &mcpCall{o: o, ctx: ctx, c: c, results: make(chan callDone, 1), answers: make(chan answered, 1)}
	r.core = session.New(c, session.Policy{Person: o.Person, Answers: o.Answers,
		AcceptDefaults: o.AcceptDefaults, Decline: o.Decline, ApproveURLs: o.ApproveURLs, AutoRetry: o.AutoRetry, Quiet: o.Quiet, Peer: "server", Retried: "call"}, nil)
	r.core.SetMemory(memoryFor(o.Memory, c, o.Server.Dir))
	defer r.core.Close()
	tools, err := c.Tools(ctx)
	if err != nil {
		fmt.Fprintln(o.Stderr, "elicit: listing the tools:", mcpconn.ErrorText(err))
		return ExitFailed
	}
	found := false
	for _, t := range tools {
		if t.Name == o.Tool {
			found, r.title = true, t.Display()
		}
	}
	if !found {
		fmt.Fprintf(o.Stderr, "elicit: %s offers no tool %q (elicit mcp tools lists them)\n", c.Info().Display(), sanitize.Line(o.Tool))
		return ExitFailed
	}
	r.start()
	return r.loop()
}

// start makes the call (again, after -32042).
func (r *mcpCall) start() {
	r.calls++
	r.refused = nil
	r.core.Prompted(callKey)
	go func() {
		res, err := r.c.CallTool(r.ctx, mcpconn.Call{Name: r.o.Tool, Args: r.o.Args, ProgressToken: "elicit-call"})
		r.results <- callDone{res, err}
	}()
}

func (r *mcpCall) loop() int {
	events := r.c.Events()
	var flow <-chan time.Time
	for !r.done {
		if r.flowT != nil {
			flow = r.flowT.C
		}
		select {
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			r.event(ev)
		case d := <-r.results:
			r.result(d)
		case a := <-r.answers:
			gone := r.gone
			r.asking, r.stopAsk, r.gone = nil, nil, false
			if !gone {
				r.changes(r.core.Answer(a.q, a.out))
			}
		case <-flow:
			r.flowT, flow = nil, nil
			r.flowsTimedOut()
		case <-r.ctx.Done():
			fmt.Fprintf(r.o.Stderr, "elicit: timed out after %s (--timeout)\n", r.o.Timeout)
			return ExitTimeout
		}
		r.next()
	}
	return r.code
}

func (r *mcpCall) say(format string, args ...any) {
	fmt.Fprintf(r.o.Stderr, "elicit: "+format+"\n", args...)
}

// sayLine says text as it is: a note, one line a decision.
func (r *mcpCall) sayLine(text string) {
	io.WriteString(r.o.Stderr, "elicit: "+text+"\n")
}

func (r *mcpCall) finish(code int) { r.code, r.done = code, true }

// event handles one event of the server.
func (r *mcpCall) event(ev mcpconn.Event) {
	switch ev := ev.(type) {
	case mcpconn.Progress:
		r.say("progress %s", progressText(ev))
	case mcpconn.Log:
		r.say("server log (%s): %s", ev.Level, ev.Text)
	case mcpconn.Exited:
		if !r.done {
			r.say("the call did not finish: %s", ev.Reason)
			for _, l := range ev.Stderr {
				fmt.Fprintln(r.o.Stderr, "  | "+l)
			}
			r.finish(ExitFailed)
		}
	}
	if n, ok := ev.(mcpconn.Notice); ok {
		r.sayLine(n.Text)
	}
	r.changes(r.core.Apply(ev)) // its questions, as they are
}

// changes says what the core decided and takes up what it asks.
func (r *mcpCall) changes(ch session.Changes) {
	ch = r.core.Settle(r.ctx, ch)
	for _, n := range ch.Notes {
		r.sayLine(n.Text)
	}
	for _, cl := range ch.Closed {
		if cl.Q == r.asking && r.stopAsk != nil {
			r.gone = true
			r.stopAsk()
		}
		r.say("a question from the server was closed: %s", sanitize.Line(cl.Reason))
	}
	if r.flowT == nil && len(legacyFlows(r.core)) > 0 {
		r.flowT = time.NewTimer(r.o.FlowTimeout)
		r.say("waiting up to %s for %s to report the URL flow complete", r.o.FlowTimeout, r.c.Info().Display())
	}
	switch {
	case ch.Send == callKey && r.calls < 2:
		r.start() // the core said so
	case ch.Retry == callKey && r.calls < 2:
		r.offerRetry()
	case ch.Send != "" || ch.Retry != "":
		r.say("the call was already retried once; giving up")
		r.finish(ExitFailed)
	case r.refused != nil && !r.done && !r.core.WaitsToRetry():
		// A URL it needed was not opened (cancelled: no one to consent;
		// declined): nothing will retry it, so it ends now, with its
		// error, not at --timeout.
		r.say("the call failed: %s", mcpconn.ErrorText(r.refused))
		r.finish(ExitFailed)
	}
}

// offerRetry asks a person whether to retry; without one, says how.
func (r *mcpCall) offerRetry() {
	if r.o.Person && r.o.Ask != nil && r.o.Ask.Confirm(r.ctx, fmt.Sprintf("The URL flows %s needed are complete. Call %s again?", r.c.Info().Display(), r.title)) {
		r.start()
		return
	}
	r.say("the URL flows are complete; run again (or with --auto-retry) to retry the call")
	r.finish(ExitFailed)
}

// flowsTimedOut goes on as if the -32042 flows were done: nobody can say
// so here, and the server may never send the notification.
func (r *mcpCall) flowsTimedOut() {
	for _, f := range legacyFlows(r.core) {
		r.say("no notifications/elicitation/complete for %s within %s: going on as if the flow were done", f.Q.Report.Site(), r.o.FlowTimeout)
		r.changes(r.core.MarkDone(f))
	}
}

// legacyFlows are the pending flows of a -32042 error: a retry waits for
// them (the flow of an elicitation/create needs no wait: the call goes on).
func legacyFlows(c *session.Core) []*session.Flow {
	var out []*session.Flow
	for _, f := range c.Flows() {
		if f.Legacy {
			out = append(out, f)
		}
	}
	return out
}

// next takes up the question in front, if none is being asked.
func (r *mcpCall) next() {
	q := r.core.Front()
	if r.done || q == nil || r.asking != nil {
		return
	}
	r.asking = q
	ctx, cancel := context.WithCancel(r.ctx)
	r.stopAsk = cancel
	if !r.o.Person { // only --approve-urls leaves a question to the front end
		go func() { r.answers <- answered{q, r.approveURL(q)} }()
		return
	}
	go func() {
		out := r.o.Ask.Ask(ctx, q, r.c.Info().Display())
		cancel()
		r.answers <- answered{q, out}
	}()
}

// approveURL is --approve-urls: open the URL unless its analysis is
// high-risk, and say what was done. A URL it does not open is cancelled
// with the reason: nobody said no to it.
func (r *mcpCall) approveURL(q *question.Question) question.Outcome {
	rep := q.Report
	if rep.MaxSeverity() >= urlcheck.High {
		var why []string
		for _, w := range rep.Warnings {
			if w.Severity >= urlcheck.High {
				why = append(why, w.Message)
			}
		}
		return question.Outcome{Action: question.Cancel, By: question.ByRule, Reason: "--approve-urls opens no high-risk URL: " + strings.Join(why, "; ")}
	}
	if err := r.o.Opener.Open(rep.URL); err != nil {
		return question.Outcome{Action: question.Cancel, By: question.ByRule, Reason: "the browser did not start: " + err.Error()}
	}
	r.say("handed %s to the browser (--approve-urls)", urlcheck.Visible(rep.URL))
	return question.Outcome{Action: question.Accept, By: question.ByRule, Reason: "--approve-urls"}
}

// result handles the call's result.
func (r *mcpCall) result(d callDone) {
	if reqs, refused, ok := r.c.URLRequired(d.err); ok {
		for _, why := range refused {
			r.say("refused a URL the server needs: %s", sanitize.Line(why))
		}
		if len(reqs) == 0 {
			r.say("%s needs URL flows completed first, and none could be offered", r.c.Info().Display())
			r.finish(ExitFailed)
			return
		}
		r.refused = d.err
		r.changes(r.core.Apply(question.URLsNeeded{Qs: reqs}))
		return
	}
	if d.err != nil {
		if errors.Is(d.err, context.DeadlineExceeded) {
			return // the loop says it
		}
		r.say("the call failed: %s", mcpconn.ErrorText(d.err))
		r.finish(ExitFailed)
		return
	}
	res := d.res
	var text []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text = append(text, t.Text)
			continue
		}
		r.say("%s", contentNote(c))
	}
	if res.IsError {
		r.say("%s reported an error: %s", r.title, sanitize.Text(strings.Join(text, "\n")))
		r.finish(ExitFailed)
		return
	}
	for _, t := range text {
		fmt.Fprintln(r.o.Stdout, strings.TrimRight(t, "\n"))
	}
	if len(text) == 0 && res.StructuredContent != nil {
		b, _ := json.MarshalIndent(res.StructuredContent, "", "  ")
		fmt.Fprintln(r.o.Stdout, string(b))
	}
	r.finish(ExitOK)
}

// progressText is a progress notification in a few words.
func progressText(p mcpconn.Progress) string {
	s := fmt.Sprintf("%g", p.Progress)
	if p.Total > 0 {
		s = fmt.Sprintf("%g/%g (%d%%)", p.Progress, p.Total, int(100*p.Progress/p.Total))
	}
	if p.Message != "" {
		s += " " + p.Message
	}
	return s
}

// contentNote says in a line what a result's content other than text is.
func contentNote(c mcp.Content) string {
	switch c := c.(type) {
	case *mcp.ImageContent:
		return fmt.Sprintf("the result holds an image (%s, %d bytes), not shown", sanitize.Line(c.MIMEType), len(c.Data))
	case *mcp.AudioContent:
		return fmt.Sprintf("the result holds audio (%s, %d bytes), not played", sanitize.Line(c.MIMEType), len(c.Data))
	case *mcp.ResourceLink:
		name := c.Title
		if name == "" {
			name = c.Name
		}
		return fmt.Sprintf("the result links a resource: %s <%s>", sanitize.Line(name), urlcheck.Visible(c.URI))
	case *mcp.EmbeddedResource:
		if c.Resource != nil {
			return fmt.Sprintf("the result embeds a resource: %s (%s)", urlcheck.Visible(c.Resource.URI), sanitize.Line(c.Resource.MIMEType))
		}
	}
	return "the result holds content of another kind, not shown"
}
