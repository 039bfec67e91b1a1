package attach

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/schemamap"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/session"
)

// RunAnswers answers without a terminal: each open request is asked of
// the session core with no person, which answers it by the rule every
// front end follows (session.Unattended): accepted with answers (the
// format `-p --answers` reads: question id to value, an option's id for a
// single select, a list of ids for a multi-select; then each question's
// default), or cancelled with the reason when they cannot fill it; a
// URL-only request is cancelled (nobody is there to consent). Every
// completed request, whoever completed it, is printed to out as one JSON
// line. It answers every request until the connection ends (nil: the host
// went away) or ctx is done (ctx.Err()).
func RunAnswers(ctx context.Context, c Conn, answers map[string]json.RawMessage, out, errOut io.Writer) error {
	_, err := runAnswers(ctx, c, answers, false, out, errOut)
	return err
}

// AnswerOne answers the first open request as RunAnswers does (waiting
// for one), prints its line once it is completed, by this client or
// another, and returns it. The error says why there is none: the request
// was withdrawn (its turn ended), the host refused the answer, the
// connection ended first, or ctx is done (ctx.Err()).
func AnswerOne(ctx context.Context, c Conn, answers map[string]json.RawMessage, out, errOut io.Writer) (Completed, error) {
	line, err := runAnswers(ctx, c, answers, true, out, errOut)
	if err != nil {
		return Completed{}, err
	}
	return *line, nil
}

// saying is the source as the core holds it in a script: it says on
// errOut why a request was answered as it was, when no one chose.
type saying struct {
	*Source
	errOut io.Writer
}

func (s saying) Answer(q *question.Question, out question.Outcome) bool {
	if out.Reason != "" {
		fmt.Fprintf(s.errOut, "elicit attach: %s request %s: %s\n", out.Reply(q.Kind).Action, sanitize.Line(s.RequestOf(q)), sanitize.Line(out.Reason))
	}
	return s.Source.Answer(q, out)
}

func runAnswers(ctx context.Context, c Conn, answers map[string]json.RawMessage, once bool, out, errOut io.Writer) (*Completed, error) {
	if answers == nil {
		answers = map[string]json.RawMessage{}
	}
	src := NewSource(c, SourceOptions{Script: true})
	defer src.Close()
	core := session.New(saying{src, errOut}, session.Policy{Answers: answers}, nil)
	defer core.Close()
	mine := "" // with once: the request answered
	enc := json.NewEncoder(out)
	for {
		ev, ok := src.Next(ctx)
		if !ok {
			return nil, ctx.Err()
		}
		for _, e := range src.Apply(ev) {
			switch e := e.(type) {
			case question.Asked:
				if once && mine != "" {
					continue // once: only the first request
				}
				mine = src.RequestOf(e.Q)
				core.Settle(ctx, core.Apply(e))
			case Completed:
				if once && e.Request != mine {
					continue
				}
				if err := enc.Encode(e); err != nil {
					return nil, err
				}
				if once {
					return &e, nil
				}
			case Refused:
				if once && e.Request == mine {
					return nil, fmt.Errorf("the host refused the answer to request %s: %s", sanitize.Line(mine), e.Reason)
				}
				fmt.Fprintln(errOut, "elicit attach: the host refused:", e.Reason)
			case Problem:
				fmt.Fprintln(errOut, "elicit attach:", e.Text)
			case Unshown:
				fmt.Fprintf(errOut, "elicit attach: cancel request %s: %s\n", sanitize.Line(e.Request), e.Reason)
				if once && mine == "" {
					mine = e.Request
				}
			case Ended:
				if once {
					return nil, errors.New("the connection to the host ended before the request was answered")
				}
				return nil, e.Err
			default:
				core.Apply(e)
			}
		}
		if once && mine != "" && !src.Has(mine) {
			return nil, fmt.Errorf("request %s was withdrawn before it was answered (its turn ended)", sanitize.Line(mine))
		}
	}
}

// Fill is the completion answers give request r without a person, by the
// rule RunAnswers follows (session.Unattended, with what the form holds
// as its defaults: heldAsDefaults): accepted with what the answers, then
// the form's drafts and defaults fill, else cancelled with the reason
// (nobody said no to it). A nil or empty answers map accepts the form as
// it stands (--accept-defaults). `elicit inbox answer` sends it.
func Fill(r ahp.Request, answers map[string]json.RawMessage) (question.Action, map[string]ahp.Answer, string) {
	pol := session.Policy{Answers: answers}
	if pol.Answers == nil {
		pol.Answers = map[string]json.RawMessage{}
	}
	if err := ahp.CheckRequest(&r); err != nil {
		return question.Cancel, nil, err.Error()
	}
	if len(r.Questions) == 0 {
		if r.URL != "" {
			out, _ := session.Unattended(question.URL, nil, pol)
			return out.Action, nil, out.Reason
		}
		return question.Accept, nil, ""
	}
	m, notes, err := schemamap.FromQuestions(r.Questions)
	if err != nil {
		return question.Cancel, nil, err.Error()
	}
	if len(notes) > 0 {
		return question.Cancel, nil, notes[0]
	}
	heldAsDefaults(m, r.Answers)
	out, _ := session.Unattended(question.Form, m.Schema, pol)
	if out.Action != question.Accept {
		return out.Action, nil, out.Reason
	}
	return question.Accept, m.Answers(out.Content, ahp.Submitted), ""
}
