package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/internal/procgroup"
	"github.com/elicit-dev/elicit/question"
)

// Runner runs the configured hooks. A nil *Runner has no hooks.
type Runner struct {
	hooks []config.Hook
	// Lifecycle starts each hook and ends what it leaves; nil means
	// procgroup.Default, which the program shuts down on every exit.
	Lifecycle *procgroup.Lifecycle
}

// New makes a Runner from the configuration's hooks, in their order.
func New(hooks []config.Hook) *Runner {
	return &Runner{hooks: hooks}
}

// Has reports whether any hook would run for this event and agent, so a
// caller can skip building the input.
func (r *Runner) Has(event config.Event, agent string) bool {
	if r == nil {
		return false
	}
	for _, h := range r.hooks {
		if h.Matches(event, agent) {
			return true
		}
	}
	return false
}

// RunElicitation runs the Elicitation hooks before a question is shown.
// The Result is always usable: Pass when no hook answered. The error
// joins one *Error per hook that failed (and ctx's error if it ended); it
// is non-nil even when another hook then answered, and the caller shows
// it either way.
func (r *Runner) RunElicitation(ctx context.Context, in Input) (Result, error) {
	in.Action, in.Content = "", nil
	return r.runAll(ctx, config.Elicitation, in)
}

// RunElicitationResult runs the ElicitationResult hooks after the user
// answered in.Action (with in.Content for a form accept). A hook may
// override the answer: Answer or Declined replace the user's; Pass keeps
// it. Errors are as for RunElicitation.
func (r *Runner) RunElicitationResult(ctx context.Context, in Input) (Result, error) {
	return r.runAll(ctx, config.ElicitationResult, in)
}

func (r *Runner) runAll(ctx context.Context, event config.Event, in Input) (Result, error) {
	if r == nil {
		return Result{}, nil
	}
	in.HookEventName = string(event)
	if in.MCPServerName == "" {
		in.MCPServerName = in.Agent
	}
	data, err := json.Marshal(in)
	if err != nil {
		return Result{}, fmt.Errorf("hooks: the question cannot be written as JSON: %w", err)
	}
	var errs []error
	for _, h := range r.hooks {
		if !h.Matches(event, in.Agent) {
			continue
		}
		lc := r.Lifecycle
		if lc == nil {
			lc = procgroup.Default
		}
		out, err := run(ctx, lc, h, data, in.Cwd)
		if ctx.Err() != nil {
			return Result{}, errors.Join(append(errs, ctx.Err())...)
		}
		if err != nil {
			errs = append(errs, &Error{Hook: h.String(), Event: event, Reason: describe(err, h), Stderr: shown(out.stderr)})
			continue
		}
		res, herr := decide(event, in, out)
		if herr != nil {
			herr.Hook = h.String()
			errs = append(errs, herr)
			continue
		}
		if res.Decision != Pass {
			res.Hook = h.String()
			return res, errors.Join(errs...)
		}
	}
	return Result{}, errors.Join(errs...)
}

// hookOutput is the JSON a hook may print.
type hookOutput struct {
	Decision           string `json:"decision"`
	Reason             string `json:"reason"`
	HookSpecificOutput *struct {
		HookEventName string          `json:"hookEventName"`
		Action        question.Action `json:"action"`
		Content       json.RawMessage `json:"content"`
	} `json:"hookSpecificOutput"`
}

// decide reads one hook's exit status and output. It is pure: the whole
// contract, without the process.
func decide(event config.Event, in Input, out output) (Result, *Error) {
	fail := func(format string, args ...any) (Result, *Error) {
		return Result{}, &Error{Event: event, Reason: fmt.Sprintf(format, args...), Stderr: shown(out.stderr)}
	}
	switch out.code {
	case 0:
	case 2:
		return Result{Decision: Declined, Action: question.Decline, Reason: shown(out.stderr)}, nil
	default:
		return fail("exit status %d", out.code)
	}
	stdout := bytes.TrimSpace(out.stdout)
	if len(stdout) == 0 {
		return Result{}, nil
	}
	var o hookOutput
	if err := json.Unmarshal(stdout, &o); err != nil {
		return fail("printed something that is not a JSON answer (%q)", shown(stdout[:min(len(stdout), 60)]))
	}
	if o.Decision == "block" {
		return Result{Decision: Declined, Action: question.Decline, Reason: shown([]byte(o.Reason))}, nil
	}
	hs := o.HookSpecificOutput
	if hs == nil || hs.Action == "" {
		return Result{}, nil
	}
	if hs.HookEventName != string(event) {
		return fail("hookSpecificOutput.hookEventName is %q, not %q", hs.HookEventName, event)
	}
	switch hs.Action {
	case question.Decline, question.Cancel:
		return Result{Decision: Answer, Action: hs.Action}, nil
	case question.Accept:
	default:
		return fail("unknown action %q (want accept, decline or cancel)", hs.Action)
	}
	if in.Mode == "url" {
		if event == config.Elicitation || in.Action != question.Accept {
			return fail("refused: a hook may not accept a URL-mode question; opening a URL needs the user's consent")
		}
		return Result{Decision: Answer, Action: question.Accept}, nil
	}
	content := bytes.TrimSpace(hs.Content)
	if len(content) == 0 || string(content) == "null" {
		content = []byte("{}")
	}
	if content[0] != '{' {
		return fail("accept with content that is not a JSON object")
	}
	var c bytes.Buffer
	if err := json.Compact(&c, content); err != nil {
		return fail("accept with content that is not JSON")
	}
	return Result{Decision: Answer, Action: question.Accept, Content: json.RawMessage(c.Bytes())}, nil
}
