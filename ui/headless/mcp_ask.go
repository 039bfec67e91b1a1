package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/schema"
	"github.com/elicit-dev/elicit/question/urlcheck"
	"github.com/elicit-dev/elicit/theme"
	"github.com/elicit-dev/elicit/urlconsent"
)

// TerminalAsker asks on a terminal: each form and each URL consent as a
// full-screen program of its own (forms.Run, urlconsent.Run), keys from In,
// drawn on Out (stderr, so stdout stays the tool's text).
type TerminalAsker struct {
	In     io.Reader
	Out    io.Writer
	Opener urlconsent.Opener // nil = the system browser
	Theme  *theme.Theme
	// Accessible asks with line prompts (forms.RunAccessible,
	// urlconsent.RunAccessible) instead of full-screen programs.
	Accessible bool
	// URLs analyzes a URL for its consent screen, as the server's
	// connection did (mcpconn.Config.URLs); nil: the built-in list.
	URLs *urlcheck.Analyzer
}

// Ask implements Asker.
func (a TerminalAsker) Ask(ctx context.Context, q *question.Question, server string) question.Outcome {
	if q.Kind == question.URL {
		h := urlconsent.Header{Agent: server, ToolCall: q.From.Tool, Message: q.Message, Visits: q.Memory.Visits}
		out, err := urlconsent.Run(ctx, q.URL, urlconsent.RunOptions{Header: h, In: a.In, Out: a.Out, Opener: a.Opener, Theme: a.Theme, Accessible: a.Accessible, URLs: a.URLs})
		if err != nil {
			return question.Outcome{Action: question.Cancel, Reason: "the consent screen failed: " + err.Error()}
		}
		return out
	}
	h := forms.Header{Agent: server, ToolCall: q.From.Tool, Message: q.Message, Index: 1, Total: 1}
	out, err := forms.Run(ctx, q.Schema, h, forms.RunOptions{In: a.In, Out: a.Out, Theme: a.Theme,
		Prefill: q.Memory.Prefill, RememberedAt: q.Memory.PrefillAt, Suggestions: q.Memory.Suggestions, Accessible: a.Accessible})
	if err != nil {
		return question.Outcome{Action: question.Cancel, Reason: "the form failed: " + err.Error()}
	}
	return out
}

// confirmSchema is a yes-or-no question as a one-field form, so it is
// answered with the same keys as every form.
const confirmSchema = `{"type":"object","properties":{"yes":{"type":"boolean","title":%s,"default":true}},"required":["yes"]}`

// Confirm implements Asker.
func (a TerminalAsker) Confirm(ctx context.Context, prompt string) bool {
	title, _ := json.Marshal(prompt)
	s, err := schema.ParseSchema(fmt.Appendf(nil, confirmSchema, title))
	if err != nil {
		return false
	}
	out, err := forms.Run(ctx, s, forms.Header{Agent: "elicit", Index: 1, Total: 1}, forms.RunOptions{In: a.In, Out: a.Out, Theme: a.Theme, Accessible: a.Accessible})
	return err == nil && out.Action == question.Accept && out.Content["yes"] == true
}
