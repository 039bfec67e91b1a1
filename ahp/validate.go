package ahp

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/question"
)

// Limits caps what one answer may hold, so a peer cannot make the host (or
// a client) keep arbitrarily large values. The zero value means the
// defaults.
type Limits struct {
	MaxText     int // runes in one text value or free-form entry (default 16384)
	MaxFreeform int // free-form entries in one answer (default 32)
	MaxSelected int // ids in one selected-many value (default 1024)
}

func (l Limits) orDefault() Limits {
	if l.MaxText <= 0 {
		l.MaxText = 16384
	}
	if l.MaxFreeform <= 0 {
		l.MaxFreeform = 32
	}
	if l.MaxSelected <= 0 {
		l.MaxSelected = 1024
	}
	return l
}

// valueKind is the answer value kind a question kind takes ("" for a kind
// elicit does not know: any value is tolerated).
func valueKind(kind string) string {
	switch kind {
	case KindText:
		return ValueText
	case KindNumber, KindInteger:
		return ValueNumber
	case KindBoolean:
		return ValueBoolean
	case KindSingleSelect:
		return ValueSelected
	case KindMultiSelect:
		return ValueSelectedMany
	}
	return ""
}

// ValueKindFor is the answer value kind a question of that kind takes, ""
// for a kind elicit does not know.
func ValueKindFor(questionKind string) string { return valueKind(questionKind) }

// CheckAnswer says why a does not fit q, or nil. Every answer is checked
// for its state, its value's kind, option ids, free-form permission and
// the size limits; a submitted one also for the question's bounds (length,
// range, format, item count). A draft may be on its way to valid ("1" on
// the way to "150"), so its bounds wait for the submission.
func CheckAnswer(q *Question, a *Answer, lim Limits) error {
	lim = lim.orDefault()
	switch a.State {
	case Skipped:
		if a.Value != nil {
			return errors.New("a skipped answer carries no value")
		}
		return checkFreeform(a.FreeformValues, lim)
	case Draft, Submitted:
	default:
		return fmt.Errorf("unknown answer state %q", clip(a.State))
	}
	if a.Value == nil {
		return fmt.Errorf("a %s answer needs a value", a.State)
	}
	v := a.Value
	want := valueKind(q.Kind)
	if want == "" {
		return nil // a kind elicit does not know: tolerated
	}
	if v.Kind != want {
		return fmt.Errorf("question %q takes a %q value, not %q", clip(q.ID), want, clip(v.Kind))
	}
	if err := checkShape(q, v, lim); err != nil {
		return err
	}
	if a.State == Submitted {
		return checkBounds(q, v)
	}
	return nil
}

// checkShape checks what holds for drafts too: sizes, options, free-form.
func checkShape(q *Question, v *Value, lim Limits) error {
	if utf8.RuneCountInString(v.Text) > lim.MaxText {
		return fmt.Errorf("text longer than %d characters", lim.MaxText)
	}
	if err := checkFreeform(v.Freeform, lim); err != nil {
		return err
	}
	if len(v.Freeform) > 0 && !q.AllowFreeformInput {
		return fmt.Errorf("question %q takes no free-form text", clip(q.ID))
	}
	switch v.Kind {
	case ValueNumber:
		if !smallNumber(string(v.Number)) {
			return fmt.Errorf("%q is not a number elicit takes (at most 100 characters, exponent within ±400)", clip(string(v.Number)))
		}
		if _, ok := new(big.Rat).SetString(string(v.Number)); !ok {
			return fmt.Errorf("%q is not a number", clip(string(v.Number)))
		}
	case ValueSelected:
		if v.Selected != "" && !q.HasOption(v.Selected) {
			return fmt.Errorf("%q is not an option of question %q", clip(v.Selected), clip(q.ID))
		}
	case ValueSelectedMany:
		if len(v.Many) > lim.MaxSelected {
			return fmt.Errorf("more than %d options selected", lim.MaxSelected)
		}
		seen := map[string]bool{}
		for _, id := range v.Many {
			if !q.HasOption(id) {
				return fmt.Errorf("%q is not an option of question %q", clip(id), clip(q.ID))
			}
			if seen[id] {
				return fmt.Errorf("option %q selected twice", clip(id))
			}
			seen[id] = true
		}
	}
	return nil
}

func checkFreeform(f []string, lim Limits) error {
	if len(f) > lim.MaxFreeform {
		return fmt.Errorf("more than %d free-form entries", lim.MaxFreeform)
	}
	for _, s := range f {
		if utf8.RuneCountInString(s) > lim.MaxText {
			return fmt.Errorf("free-form text longer than %d characters", lim.MaxText)
		}
	}
	return nil
}

// checkBounds checks a submitted value against the question's bounds.
func checkBounds(q *Question, v *Value) error {
	switch v.Kind {
	case ValueText:
		n := big.NewRat(int64(utf8.RuneCountInString(v.Text)), 1)
		if err := within(n, q.Min, q.Max, "characters"); err != nil {
			return err
		}
		return checkFormat(q.Format, v.Text)
	case ValueNumber:
		n, _ := new(big.Rat).SetString(string(v.Number))
		if q.Kind == KindInteger && !n.IsInt() {
			return fmt.Errorf("%s is not a whole number", clip(string(v.Number)))
		}
		return within(n, q.Min, q.Max, "")
	case ValueSelected:
		if v.Selected == "" && !hasText(v.Freeform) {
			return errors.New("no option selected and no text given")
		}
	case ValueSelectedMany:
		n := big.NewRat(int64(len(v.Many)+len(nonEmpty(v.Freeform))), 1)
		return within(n, q.Min, q.Max, "items")
	}
	return nil
}

func within(n *big.Rat, lo, hi *json.Number, unit string) error {
	if lo != nil {
		if b, ok := new(big.Rat).SetString(string(*lo)); ok && n.Cmp(b) < 0 {
			return fmt.Errorf("at least %s %s needed", *lo, unit)
		}
	}
	if hi != nil {
		if b, ok := new(big.Rat).SetString(string(*hi)); ok && n.Cmp(b) > 0 {
			return fmt.Errorf("at most %s %s allowed", *hi, unit)
		}
	}
	return nil
}

func checkFormat(format, s string) error {
	switch format {
	case "email":
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			return errors.New("not an email address")
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" {
			return errors.New("not an absolute URI")
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return errors.New("not a date (YYYY-MM-DD)")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return errors.New("not a date-time (RFC 3339)")
		}
	}
	return nil
}

func hasText(l []string) bool { return len(nonEmpty(l)) > 0 }

func nonEmpty(l []string) []string {
	var out []string
	for _, s := range l {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// CheckCompletion says why completing req with c must be refused, or nil:
// the response must be known, every answer in c must fit its question,
// and an accept needs every required question submitted (after c's
// answers are merged over the synced ones) and every submitted answer
// within its bounds. Drafts are not submissions.
func CheckCompletion(req *Request, c InputCompleted, lim Limits) error {
	if !c.Response.Valid() {
		return fmt.Errorf("unknown response %q", clip(string(c.Response)))
	}
	for qid, a := range c.Answers {
		q := req.Question(qid)
		if q == nil {
			return fmt.Errorf("the request has no question %q", clip(qid))
		}
		if err := CheckAnswer(q, &a, lim); err != nil {
			return fmt.Errorf("question %q: %w", clip(qid), err)
		}
	}
	if c.Response != question.Accept {
		return nil
	}
	for i := range req.Questions {
		q := &req.Questions[i]
		a, ok := c.Answers[q.ID]
		if !ok {
			a, ok = req.Answers[q.ID]
		}
		if ok && a.State == Submitted {
			if err := CheckAnswer(q, &a, lim); err != nil {
				return fmt.Errorf("question %q: %w", clip(q.ID), err)
			}
			continue
		}
		if !q.Required {
			continue
		}
		switch {
		case !ok:
			return fmt.Errorf("required question %q has no answer", clip(q.ID))
		case a.State == Skipped:
			return fmt.Errorf("required question %q was skipped", clip(q.ID))
		default:
			return fmt.Errorf("required question %q has only a draft; accept needs submitted answers", clip(q.ID))
		}
	}
	return nil
}

// clip keeps a peer's string short in a reason; the reason is sanitized
// where it is shown.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	return string([]rune(s)[:39]) + "…"
}

// smallNumber bounds a number before it is parsed exactly: big.Rat would
// build 10^exponent, so "1e999999999" from a peer would take the host's
// memory and time.
func smallNumber(s string) bool {
	if len(s) > 100 {
		return false
	}
	i := strings.IndexAny(s, "eE")
	if i < 0 {
		return true
	}
	exp, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
	return err == nil && exp >= -400 && exp <= 400
}
