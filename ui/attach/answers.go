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
	qn "github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/session"
)

// Completed is the line RunAnswers prints for each completed request.
type Completed struct {
	Request  string                `json:"request"`
	Response qn.Action             `json:"response"`
	Answers  map[string]ahp.Answer `json:"answers,omitempty"`
	By       string                `json:"by,omitempty"` // the client that completed it
	Mine     bool                  `json:"mine"`
}

// RunAnswers answers without a terminal: each open request is accepted
// with answers (the format `-p --answers` reads: question id to value, an
// option's id for a single select, a list of ids for a multi-select; then
// each question's default), or cancelled with the reason when they cannot
// fill it; a URL-only request is cancelled (nobody is there to consent).
// Every completed request, whoever completed it, is printed to out as one
// JSON line. It answers every request until the connection ends (nil: the
// host went away) or ctx is done (ctx.Err()).
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

func runAnswers(ctx context.Context, c Conn, answers map[string]json.RawMessage, once bool, out, errOut io.Writer) (*Completed, error) {
	handled := map[string]bool{}
	mine := "" // with once: the request answered
	enc := json.NewEncoder(out)
	for {
		ev, ok := c.Next(ctx)
		if !ok {
			return nil, ctx.Err()
		}
		var in ahp.Inputs
		switch ev := ev.(type) {
		case ahp.Closed:
			if once {
				return nil, errors.New("the connection to the host ended before the request was answered")
			}
			return nil, ev.Err
		case ahp.Problem:
			fmt.Fprintln(errOut, "elicit attach:", sanitize.Line(ev.Err.Error()))
			continue
		case ahp.Reset:
			in = ev.Inputs
		case ahp.Rejected:
			in = ev.Inputs
			if done, ok := ev.Action.(ahp.InputCompleted); once && ok && done.RequestID == mine {
				return nil, fmt.Errorf("the host refused the answer to request %s: %s", sanitize.Line(mine), sanitize.Line(ev.Reason))
			}
			fmt.Fprintln(errOut, "elicit attach: the host refused:", sanitize.Line(ev.Reason))
		case ahp.Changed:
			in = ev.Inputs
			if done, ok := ev.Action.(ahp.InputCompleted); ok && (!once || done.RequestID == mine) {
				line := Completed{Request: done.RequestID, Response: done.Response, Mine: ev.Mine}
				if e := in.Find(done.RequestID); e != nil {
					line.Answers = e.Request.Answers
				}
				if ev.Origin != nil {
					line.By = ev.Origin.ClientID
				}
				if err := enc.Encode(line); err != nil {
					return nil, err
				}
				if once {
					return &line, nil
				}
			}
		default:
			continue
		}
		if once && mine != "" {
			if in.Find(mine) == nil {
				return nil, fmt.Errorf("request %s was withdrawn before it was answered (its turn ended)", sanitize.Line(mine))
			}
			continue
		}
		for _, r := range in.OpenRequests() {
			if handled[r.ID] {
				continue
			}
			handled[r.ID] = true
			resp, final, why := Fill(r, answers)
			if why != "" {
				fmt.Fprintf(errOut, "elicit attach: %s request %s: %s\n", resp, sanitize.Line(r.ID), sanitize.Line(why))
			}
			_ = c.Dispatch(ahp.InputCompleted{RequestID: r.ID, Response: resp, Answers: final})
			if once {
				mine = r.ID
				break
			}
		}
	}
}

// Fill is the completion answers give request r, by the rule every front
// end follows without a person (session.Unattended): accepted with what
// the answers, then what the form holds (its synced answers: a select's
// default travels as one, never as a question's default), then the
// defaults fill, else cancelled with the reason (nobody said no to it).
// An empty answers map accepts the form as it stands (--accept-defaults).
func Fill(r ahp.Request, answers map[string]json.RawMessage) (qn.Action, map[string]ahp.Answer, string) {
	answers = withDrafts(r, answers)
	pol := session.Policy{Answers: answers}
	if pol.Answers == nil {
		pol.Answers = map[string]json.RawMessage{}
	}
	if len(r.Questions) == 0 {
		if r.URL != "" {
			out, _ := session.Unattended(qn.URL, nil, pol)
			return out.Action, nil, out.Reason
		}
		return qn.Accept, nil, ""
	}
	m, notes, err := schemamap.FromQuestions(r.Questions)
	if err != nil {
		return qn.Cancel, nil, err.Error()
	}
	if len(notes) > 0 {
		return qn.Cancel, nil, notes[0]
	}
	out, _ := session.Unattended(qn.Form, m.Schema, pol)
	if out.Action != qn.Accept {
		return out.Action, nil, out.Reason
	}
	return qn.Accept, m.Answers(out.Content, ahp.Submitted), ""
}

// withDrafts is answers over what the form holds now (its defaults, and
// what was typed in it anywhere: the synced answers), in the answers
// file's format.
func withDrafts(r ahp.Request, answers map[string]json.RawMessage) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for id, a := range r.Answers {
		if a.State == ahp.Skipped || a.Value == nil {
			continue
		}
		var v any
		switch a.Value.Kind {
		case ahp.ValueText:
			v = a.Value.Text
		case ahp.ValueNumber:
			v = a.Value.Number
		case ahp.ValueBoolean:
			v = a.Value.Bool
		case ahp.ValueSelected:
			v = a.Value.Selected
		case ahp.ValueSelectedMany:
			v = a.Value.Many
		default:
			continue
		}
		if b, err := json.Marshal(v); err == nil {
			out[id] = b
		}
	}
	for k, v := range answers {
		out[k] = v
	}
	return out
}
