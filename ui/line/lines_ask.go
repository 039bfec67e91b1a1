package line

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/ui/internal/say"
	"github.com/elicit-dev/elicit/urlconsent"

	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// tries is how many answers that are not a whole expected word a line
// question takes before it gives up (cancel: nothing is granted).
const tries = 3

// question prints q and returns the next line typed after it appeared;
// lines typed ahead are discarded (and counted). ok is false at end of
// input.
func (l *lineSession) question(q string) (string, bool) {
	shown := time.Now()
	if n := l.in.since(shown); n > 0 {
		fmt.Fprintf(l.o.Out, "(%s typed before this question appeared %s ignored)\n", say.Plural(n, "line", "lines"), map[bool]string{true: "was", false: "were"}[n == 1])
	}
	fmt.Fprint(l.o.Out, q)
	s, ok := l.in.next()
	return strings.TrimSpace(s.s), ok
}

// confirm asks until the answer is word (true), empty (false) or input
// ends; anything else is asked again, at most tries times.
func (l *lineSession) confirm(q, word string) bool {
	for range tries {
		s, ok := l.question(q)
		switch {
		case !ok || s == "":
			return false
		case strings.EqualFold(s, word):
			return true
		}
		fmt.Fprintf(l.o.Out, "Type %s exactly, or press Enter.\n", word)
	}
	return false
}

// ask puts q to the user and returns the answer; keep is set when they
// chose a permission's "always allow here".
func (l *lineSession) ask(q *question.Question) (out question.Outcome, keep bool) {
	if s := l.susp; s != nil {
		if note := s.awayNote(); note != "" {
			fmt.Fprintln(l.o.Out, note)
		}
		s.asking.Store(true)
		defer s.asking.Store(false)
	}
	switch q.Kind {
	case question.Permission:
		return l.permission(q)
	case question.Form:
		return l.form(q), false
	}
	return l.url(q), false
}

func (l *lineSession) header(q *question.Question) forms.Header {
	return forms.Header{Agent: l.c.AgentName(), ToolCall: q.From.Tool, Message: q.Message, Index: 1, Total: 1}
}

// permission reads out what is asked (the tool call, its diffs line by
// line, the files that run code later), then takes an option's number or
// its name, whole; Enter alone cancels. After the agent's options comes
// elicit's "always allow here" when a rule can be kept for the call.
func (l *lineSession) permission(q *question.Question) (question.Outcome, bool) {
	p := q
	if w := p.Write; w != nil {
		fmt.Fprintf(l.o.Out, "\nWrite: the agent writes %s; elicit asks because %s.\n", w.Path, w.Why)
		if w.Risk != "" {
			fmt.Fprintf(l.o.Out, "Warning: %s runs code later: %s.\n", w.Path, w.Risk)
		}
	} else {
		fmt.Fprintf(l.o.Out, "\nPermission: the agent wants to run %s.\n", sanitize.Line(q.From.Tool))
		for _, d := range p.Tool.Diffs {
			if why := acpconn.CodeRisk(say.RelPath(l.root(), d.Path)); why != "" {
				fmt.Fprintf(l.o.Out, "Warning: %s runs code later: %s.\n", say.RelPath(l.root(), d.Path), why)
			}
		}
	}
	l.readDiffs(p.Tool)
	for i, o := range p.Options {
		fmt.Fprintf(l.o.Out, "  %d. %s\n", i+1, sanitize.Line(o.Name))
	}
	here, offered := l.core.AllowHere(q)
	if offered {
		fmt.Fprintf(l.o.Out, "  %d. Always allow here: %s (elicit keeps the rule for this directory)\n", len(p.Options)+1, sanitize.Line(here))
	}
	for range tries {
		s, ok := l.question("Type an option's number or name (Enter alone cancels): ")
		if !ok || s == "" {
			return question.Outcome{Action: question.Cancel}, false
		}
		for i, o := range p.Options {
			if s == strconv.Itoa(i+1) || strings.EqualFold(s, sanitize.Line(o.Name)) {
				return question.Outcome{Action: question.Accept, Option: o.ID}, false
			}
		}
		if offered && (s == strconv.Itoa(len(p.Options)+1) || strings.EqualFold(s, "always allow here")) {
			return question.Outcome{}, true
		}
		fmt.Fprintln(l.o.Out, "That is not one of the options.")
	}
	return question.Outcome{Action: question.Cancel}, false
}

func (l *lineSession) form(q *question.Question) question.Outcome {
	fmt.Fprintln(l.o.Out)
	if n := l.in.since(time.Now()); n > 0 {
		fmt.Fprintf(l.o.Out, "(%s typed before this form appeared ignored)\n", say.Plural(n, "line", "lines"))
	}
	res, err := forms.RunAccessible(q.Schema, l.header(q), &lineReader{in: l.in}, l.o.Out)
	if err != nil {
		if !l.in.stopped() { // answered elsewhere: askShared says so
			fmt.Fprintln(l.o.Out, "The form could not be shown:", sanitize.Text(err.Error()))
		}
		return question.Outcome{Action: question.Cancel}
	}
	return res
}

// url asks for consent with urlconsent's line prompts (the word open;
// for a high-severity warning the site's name typed out), through
// l.question, which drops lines typed before the question appeared.
func (l *lineSession) url(q *question.Question) question.Outcome {
	h := urlconsent.Header{Agent: l.c.AgentName(), ToolCall: q.From.Tool, Message: q.Message}
	out, err := urlconsent.RunAccessible(q.Report, h, l.o.Out, l.question, l.o.Opener)
	if err != nil {
		fmt.Fprintln(l.o.Out, "The URL cannot be opened:", sanitize.Text(err.Error()))
		return question.Outcome{Action: question.Cancel}
	}
	return out
}

// lineReader feeds huh's accessible forms from the same lines.
type lineReader struct {
	in  *lineInput
	buf []byte
}

func (r *lineReader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		l, ok := r.in.next()
		if !ok {
			return 0, io.EOF
		}
		r.buf = []byte(l.s + "\n")
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}
