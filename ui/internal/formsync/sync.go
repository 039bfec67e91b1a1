// Package formsync shares one elicit form (forms.Model) with the other
// clients of an AHP input request: it finds the answers the user changed
// (to send as drafts; a field the user only passed through is not theirs
// to publish), applies other clients' drafts to the form without
// overwriting what the user typed in the question they are editing (that
// one is held, with a notice and a key to take it; an untouched value is
// simply replaced by the newer draft), and builds the final answers. It is the
// one place both `elicit attach` and the terminal of `elicit serve` do
// this, and it does no I/O.
//
//	s := formsync.New(m, form)
//	for _, ch := range s.Changes(true) { client.Dispatch(ch) } // on leaving a field, or after a typing pause
//	s.Remote(qid, answer, who)                                  // another client's draft
package formsync

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/elicit-dev/elicit/ahp"
	"github.com/elicit-dev/elicit/ahp/schemamap"
	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// held is another client's answer to the question the user is editing.
type held struct {
	answer *ahp.Answer
	who    string
}

// Sync is one shared form.
type Sync struct {
	Map     *schemamap.Map
	Form    *forms.Model
	Request string            // the request's id
	known   map[string]string // question id -> the answer the host has (JSON; "null" none)
	// base is the answer each question's fields last took from outside
	// (the request's default, last time's answer, the host's or another
	// client's draft); touched says the user changed the question since.
	// Only a touched question is the user's to publish.
	base    map[string]string
	touched map[string]bool
	held    map[string]held
	skipped map[string]bool
}

// New shares form, built from m's schema, for request id whose synced
// answers are answers (they are put in the form).
func New(id string, m *schemamap.Map, form *forms.Model, answers map[string]ahp.Answer) *Sync {
	s := &Sync{Map: m, Form: form, Request: id, known: map[string]string{}, base: map[string]string{}, touched: map[string]bool{},
		held: map[string]held{}, skipped: map[string]bool{}}
	values := form.Draft()
	for _, q := range m.Questions { // the prefilled defaults: every client starts from them
		k := key(m.Answer(q.ID, values, ahp.Draft))
		s.known[q.ID], s.base[q.ID] = k, k
	}
	initial := m.Initial()
	for qid, a := range answers {
		if d, ok := initial[qid]; ok && key(&a) == key(&d) {
			continue // the request's own default is no client's draft: the form may hold better (last time's answer)
		}
		s.Remote(qid, &a, "")
	}
	return s
}

func key(a *ahp.Answer) string {
	if a == nil {
		return "null"
	}
	b, _ := json.Marshal(a)
	return string(b)
}

// editing says which question the cursor is in ("" none).
func (s *Sync) editing() string { return s.Map.QuestionOf(s.Form.Focused()) }

// changed reports whether the user changed question qid, whose answer in
// the form is now a: since its fields last took a value from outside,
// they were edited (now or before).
func (s *Sync) changed(qid string, a *ahp.Answer) bool {
	return s.touched[qid] || key(a) != s.base[qid]
}

// adopted records that question qid's fields took a value from outside:
// what they hold now is the base, untouched.
func (s *Sync) adopted(qid string) {
	s.base[qid] = key(s.Map.Answer(qid, s.Form.Draft(), ahp.Draft))
	delete(s.touched, qid)
}

// Changes are the drafts to send: each question the user changed whose
// value in the form is not what the host has. A question the user only
// passed through (its default, last time's answer, another client's
// draft, untouched) is never sent: it is not the user's draft. The
// question being edited is included only with focused (after a typing
// pause, or on leaving it); a number still being typed ("1.") is not sent
// until it is one.
func (s *Sync) Changes(focused bool) []ahp.InputAnswerChanged {
	values := s.Form.Draft()
	cur := s.editing()
	var out []ahp.InputAnswerChanged
	for _, q := range s.Map.Questions {
		if q.ID == cur && !focused {
			continue
		}
		a := s.Map.Answer(q.ID, values, ahp.Draft)
		if !s.changed(q.ID, a) {
			continue
		}
		s.touched[q.ID] = true
		if a == nil && s.skipped[q.ID] {
			continue // skipped, and still empty: the skip stands
		}
		if a == nil && !empty(values, q.ID, s.Map.Companion(q.ID)) {
			continue // something is typed that is no value yet
		}
		k := key(a)
		if k == s.known[q.ID] {
			continue
		}
		s.known[q.ID] = k
		delete(s.skipped, q.ID)
		out = append(out, ahp.InputAnswerChanged{RequestID: s.Request, QuestionID: q.ID, Answer: a})
	}
	return out
}

func empty(values map[string]any, keys ...string) bool {
	for _, k := range keys {
		if k == "" {
			continue
		}
		switch v := values[k].(type) {
		case nil:
		case string:
			if v != "" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// Skip empties the question the cursor is in and returns the skip to send
// (nil when no question has the cursor).
func (s *Sync) Skip() *ahp.InputAnswerChanged {
	qid := s.editing()
	if qid == "" {
		return nil
	}
	for k := range s.Map.Values(qid, nil) {
		_ = s.Form.SetValue(k, nil)
	}
	a := &ahp.Answer{State: ahp.Skipped}
	s.known[qid], s.skipped[qid], s.touched[qid] = key(a), true, true
	delete(s.held, qid)
	return &ahp.InputAnswerChanged{RequestID: s.Request, QuestionID: qid, Answer: a}
}

// Remote applies an answer the host has (another client's, or the
// snapshot's; who names the client). What the user typed in the question
// they are editing is not overwritten: the answer is held (Notice says
// so) until TakeTheirs, and the user's own goes out with the next change.
// A value the user has not changed is replaced, cursor or not.
func (s *Sync) Remote(qid string, a *ahp.Answer, who string) {
	if s.Map.Values(qid, a) == nil {
		return // not a question of this form
	}
	k := key(a)
	mine := s.Map.Answer(qid, s.Form.Draft(), ahp.Draft)
	if a != nil && a.State != ahp.Skipped && key(mine) == k {
		s.known[qid], s.base[qid] = k, k // the form holds it already
		s.Form.SetEditing(qid, who)
		return
	}
	if qid == s.editing() && s.changed(qid, mine) {
		s.held[qid] = held{answer: a, who: who}
		s.known[qid] = k // the host has theirs: ours differs, and goes on the next change
		s.Form.SetEditing(s.Form.Focused(), who)
		return
	}
	s.known[qid] = k
	s.skipped[qid] = a != nil && a.State == ahp.Skipped
	for field, v := range s.Map.Values(qid, a) {
		_ = s.Form.SetValue(field, v)
	}
	s.adopted(qid)
	delete(s.held, qid)
	s.Form.SetEditing(qid, who)
}

// Notice is the one line about a held answer ("" none): who changed which
// question while the user edits it, and the key that takes theirs.
func (s *Sync) Notice(takeKey string) string {
	if len(s.held) == 0 {
		return ""
	}
	ids := make([]string, 0, len(s.held))
	for id := range s.held {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	h := s.held[ids[0]]
	who := h.who
	if who == "" {
		who = "another client"
	}
	return fmt.Sprintf("%s changed %q while you edit it · %s takes theirs, typing on keeps yours", sanitize.Line(who), sanitize.Line(s.title(ids[0])), takeKey)
}

func (s *Sync) title(qid string) string {
	if f := s.Map.Schema.Field(qid); f != nil {
		return f.Label()
	}
	return qid
}

// TakeTheirs puts the held answers in the form.
func (s *Sync) TakeTheirs() {
	for qid, h := range s.held {
		for field, v := range s.Map.Values(qid, h.answer) {
			_ = s.Form.SetValue(field, v)
		}
		s.known[qid] = key(h.answer)
		s.adopted(qid)
		delete(s.held, qid)
	}
}

// Final is the full final answers of an accepted form: every question
// with a value, submitted; a question the user skipped stays skipped.
func (s *Sync) Final(content map[string]any) map[string]ahp.Answer {
	out := s.Map.Answers(content, ahp.Submitted)
	for qid, skip := range s.skipped {
		if _, answered := out[qid]; skip && !answered {
			out[qid] = ahp.Answer{State: ahp.Skipped}
		}
	}
	return out
}
