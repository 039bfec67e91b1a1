package permissions

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bashPattern is a Bash rule's command pattern, as Claude Code reads it:
// `npm test` is that command exactly; `npm test:*` (the older form) and
// `npm test *` are it followed by nothing or by more words; a `*`
// anywhere else stands for any text, spaces included (`git * main`).
type bashPattern struct{ re *regexp.Regexp }

// compileBash turns a Bash specifier into its pattern (every specifier is
// one: a command with no `*` is matched exactly).
func compileBash(spec string) (*bashPattern, error) {
	spec = strings.TrimSpace(spec)
	if p, ok := strings.CutSuffix(spec, ":*"); ok {
		spec = strings.TrimSpace(p) + " *"
	}
	optionalTail := false
	if p, ok := strings.CutSuffix(spec, " *"); ok && !strings.Contains(p, "*") {
		// One trailing " *": the words after it may be absent (`ls *`
		// matches ls), and a word must end where it starts (not lsof).
		spec, optionalTail = p, true
	}
	parts := strings.Split(spec, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	expr := "^" + strings.Join(parts, ".*")
	if optionalTail {
		expr += "(?: .*)?"
	}
	re, err := regexp.Compile("(?s)" + expr + "$")
	if err != nil {
		return nil, err
	}
	return &bashPattern{re: re}, nil
}

func (b *bashPattern) match(cmd string) bool { return b.re.MatchString(strings.TrimSpace(cmd)) }

// simple is one simple command of a command line, in the forms rules
// match: as written (`CI=1 timeout 5 npm test`), and what it runs once
// wrappers (timeout, nice, nohup) are stripped. Allow rules match the
// forms that keep its variable assignments (an assignment such as
// NODE_OPTIONS can change what runs); deny and ask rules match any form.
type simple struct{ allow, any []string }

// commands are the simple commands a command line runs, as the shell
// parser reads it: `npm test && rm -rf build` runs two, and each must be
// allowed on its own (a rule for `npm test *` does not allow the rm).
// safe is false when the line cannot be parsed, redirects output into a
// file or declares a function: then no allow rule applies to it (deny and
// ask rules still read the whole line).
func commands(line string) (cmds []simple, safe bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, false
	}
	safe = true
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			for _, r := range n.Redirs {
				if writesFile(r) {
					safe = false
				}
			}
		case *syntax.CallExpr:
			text := slice(line, n)
			c := simple{allow: []string{text}, any: []string{text}}
			if len(n.Args) > 0 {
				if args := fromArg(line, n.Args, 0); args != text {
					c.any = append(c.any, args) // without the assignments
				}
				if rest := unwrap(line, n.Args); rest != "" {
					c.any = append(c.any, rest)
					if len(n.Assigns) == 0 {
						c.allow = append(c.allow, rest)
					}
				}
			}
			cmds = append(cmds, c)
		case *syntax.DeclClause, *syntax.LetClause, *syntax.ArithmCmd, *syntax.TestClause:
			text := slice(line, n)
			cmds = append(cmds, simple{allow: []string{text}, any: []string{text}})
		case *syntax.FuncDecl, *syntax.CoprocClause:
			safe = false // a function or coprocess runs later, under a name rules do not see
		}
		return true
	})
	return cmds, safe
}

// fromArg is the text of args from args[i] to the end.
func fromArg(line string, args []*syntax.Word, i int) string {
	start, end := int(args[i].Pos().Offset()), int(args[len(args)-1].End().Offset())
	if start < 0 || end > len(line) || start > end {
		return ""
	}
	return line[start:end]
}

// slice is the text of node n in line.
func slice(line string, n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(line) || start > end {
		return ""
	}
	return line[start:end]
}

// writesFile reports whether a redirection writes a file (not a copy of
// a file descriptor, nor /dev/null).
func writesFile(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.RdrAllClob, syntax.AppAllClob, syntax.RdrInOut:
		return r.Word == nil || r.Word.Lit() != "/dev/null"
	case syntax.DplOut:
		return r.Word == nil || !isFD(r.Word.Lit())
	}
	return false
}

func isFD(s string) bool {
	if s == "-" {
		return true
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// unwrap is what a wrapper runs (`timeout 5 npm test`: `npm test`), as
// written; "" when the command is no wrapper.
func unwrap(line string, args []*syntax.Word) string {
	i := 0
	for i < len(args) {
		skip := wrapperArgs(args[i:])
		if skip == 0 {
			break
		}
		i += skip
	}
	if i == 0 || i >= len(args) {
		return ""
	}
	return fromArg(line, args, i)
}

// wrapperArgs is how many words a wrapper at the start of args takes
// (itself and its options), 0 when args starts with none. Claude Code
// strips the same wrappers before it matches.
func wrapperArgs(args []*syntax.Word) int {
	lit := func(i int) string {
		if i < len(args) {
			return args[i].Lit()
		}
		return ""
	}
	switch lit(0) {
	case "nohup", "time":
		return 1
	case "nice":
		n := 1
		switch a := lit(1); {
		case a == "-n":
			n = 3
		case strings.HasPrefix(a, "-n") || strings.HasPrefix(a, "--adjustment=") || len(a) > 1 && a[0] == '-' && isFD(a[1:]):
			n = 2
		}
		return n
	case "timeout":
		n := 1
		for strings.HasPrefix(lit(n), "-") {
			if a := lit(n); a == "-s" || a == "-k" || a == "--signal" || a == "--kill-after" {
				n++
			}
			n++
		}
		return n + 1 // the duration
	}
	return 0
}
