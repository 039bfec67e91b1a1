package urlconsent

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// AskLine puts one question on a line and returns the answer typed after
// it (trimmed); ok is false at end of input. A host that can tell lines
// typed before the question appeared (elicit's line session does) drops
// them, so prose typed ahead never answers.
type AskLine func(prompt string) (answer string, ok bool)

// LinesFrom is an AskLine reading lines from in and printing its prompts
// on out.
func LinesFrom(in io.Reader, out io.Writer) AskLine {
	r := bufio.NewReader(in)
	return func(prompt string) (string, bool) {
		fmt.Fprint(out, prompt)
		s, err := r.ReadString('\n')
		if err != nil && s == "" {
			return "", false
		}
		return strings.TrimSpace(s), true
	}
}

// accessibleTries is how many answers that are not a whole expected word
// a question takes before it gives up (cancel: nothing is granted).
const accessibleTries = 3

// RunAccessible is the consent screen as line prompts, for screen readers
// and terminals that cannot draw the full screen: it prints who asks and
// why, then the analysis (urlcheck.WriteText), and opens the URL only when
// the word open is typed; for a high-severity warning the site's name must
// be typed out too, which no prose typed ahead produces. no (or decline)
// declines; Enter, end of input or three wrong answers cancel. On open it
// hands the URL to o and returns Accept once that worked; when it failed
// it says why and asks for "done" once the user opened it themselves
// (Accept too).
func RunAccessible(r urlcheck.Report, h Header, out io.Writer, ask AskLine, o Opener) (question.Outcome, error) {
	cancel := question.Outcome{Action: question.Cancel}
	if !r.Openable() {
		return cancel, fmt.Errorf("%w: %s", ErrNotOpenable, sanitize.Line(r.URL))
	}
	who := h.Agent
	if who == "" {
		who = "The agent"
	}
	fmt.Fprintf(out, "\n%s asks you to open a URL: %s\n", sanitize.Line(who), sanitize.Text(h.Message))
	urlcheck.WriteText(out, r)
	confirm := func(q, word string) bool {
		for range accessibleTries {
			s, ok := ask(q)
			switch {
			case !ok || s == "":
				return false
			case strings.EqualFold(s, word):
				return true
			}
			fmt.Fprintf(out, "Type %s exactly, or press Enter.\n", word)
		}
		return false
	}
	for range accessibleTries {
		s, ok := ask("Type open to open it in your browser, no to decline, Enter to cancel: ")
		switch {
		case !ok || s == "":
			return cancel, nil
		case strings.EqualFold(s, "no") || strings.EqualFold(s, "decline"):
			return question.Outcome{Action: question.Decline}, nil
		case !strings.EqualFold(s, "open"):
			fmt.Fprintln(out, "Type open, no, or press Enter.")
			continue
		}
		if r.MaxSeverity() >= urlcheck.High {
			site := r.Site()
			if !confirm(fmt.Sprintf("This URL has a high-severity warning. Type the site name (%s) to open it anyway: ", site), site) {
				return cancel, nil
			}
		}
		if err := o.Open(r.URL); err != nil {
			fmt.Fprintln(out, "Could not open the browser:", sanitize.Text(err.Error()))
			if !confirm("Open it yourself, then type done (Enter cancels): ", "done") {
				return cancel, nil
			}
			return question.Outcome{Action: question.Accept}, nil
		}
		return question.Outcome{Action: question.Accept}, nil
	}
	return cancel, nil
}
