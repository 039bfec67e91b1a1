package line

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/session"
)

// permissionsCommand is /permissions: the rules in force, numbered, with
// where each is written; `/permissions remove N` removes rule N (one
// "always allow here" kept; another file's rule is edited there). ok is
// false for any other line.
func (l *lineSession) permissionsCommand(text string) bool {
	name, arg, _ := strings.Cut(strings.TrimSpace(text), " ")
	if name != "/permissions" {
		return false
	}
	rules := l.core.Rules()
	verb, n, _ := strings.Cut(strings.TrimSpace(arg), " ")
	switch verb {
	case "":
		fmt.Fprintln(l.o.Out, "Permission rules in force (deny, then ask, then allow; /permissions remove N removes one):")
		for _, s := range session.DescribeRules(rules) {
			fmt.Fprintln(l.o.Out, "  "+s)
		}
	case "remove":
		i, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil || i < 1 || i > len(rules) {
			fmt.Fprintln(l.o.Out, "/permissions remove N: N is a rule's number in /permissions.")
			break
		}
		for _, note := range l.core.ForgetRule(context.Background(), rules[i-1]) {
			fmt.Fprintln(l.o.Out, "Note:", note.Text)
		}
	default:
		fmt.Fprintln(l.o.Out, "/permissions lists the rules; /permissions remove N removes one.")
	}
	fmt.Fprint(l.o.Out, "> ")
	return true
}

// answer puts q to the user and gives the core their answer: "always
// allow here" (the extra choice of a permission) keeps its rule.
func (l *lineSession) answer(q *question.Question) session.Changes {
	out, keep := l.askShared(q)
	if keep {
		return l.core.AnswerAllowHere(q)
	}
	return l.core.Answer(q, out)
}
