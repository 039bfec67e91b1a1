package permissions

import (
	"fmt"
	"strings"
)

// Lint is a rule that can never decide anything, and why.
type Lint struct {
	Rule *Rule
	Why  string
}

// Lints finds the rules of s that can never match a call, or never decide
// one: a specifier elicit cannot read (Task(x), WebSearch(x)); a rule a
// stronger one always overrules (`allow Bash(npm:*)` beside `deny Bash`);
// an allow rule for files that run code later, which only --allow-write
// grants. risk says why a path relative to the session directory runs
// code later ("" when it does not); nil skips that check.
func Lints(s *Set, risk func(rel string) string) []Lint {
	var out []Lint
	for _, r := range s.Rules() {
		if !r.reads() {
			out = append(out, Lint{r, fmt.Sprintf("elicit reads no specifier for %s: the rule never matches (write %s alone for all its calls)", r.tool, r.tool)})
			continue
		}
		if by := s.overruledBy(r); by != nil {
			out = append(out, Lint{r, fmt.Sprintf("never decides: the %s rule %s matches every call it does", by.Verdict, by)})
			continue
		}
		if risk != nil && r.Verdict == Allow && r.path != nil && r.path.anchor == anchorCwd {
			if prefix := literalPrefix(r.path.pattern); prefix != "" {
				probe := prefix
				if prefix != r.path.pattern {
					probe += "/x" // a file under the directory the pattern starts with
				}
				if why := risk(probe); why != "" {
					out = append(out, Lint{r, "never allows: the files it names run code later (" + why + "); only --allow-write grants them"})
				}
			}
		}
	}
	return out
}

// overruledBy is a stronger rule that matches every call r matches: the
// same rule, or its whole tool, under a stronger verdict.
func (s *Set) overruledBy(r *Rule) *Rule {
	for _, o := range s.Rules() {
		if o.Verdict <= r.Verdict {
			continue
		}
		if o.Text == r.Text || o.spec == "" && family(o.tool) == family(r.tool) {
			return o
		}
		if o.spec == "" && strings.HasPrefix(o.tool, mcpPrefix) && strings.HasPrefix(r.tool, strings.TrimSuffix(o.tool, "__*")+"__") {
			return o
		}
	}
	return nil
}

// family is the tool a rule's name covers: the file-change tools are one.
func family(tool string) string {
	if fileChangeTools[tool] {
		return "Edit"
	}
	return tool
}

// literalPrefix is the directories of a pattern before its first
// wildcard (".git" for ".git/**"); "" when it starts with one.
func literalPrefix(pattern string) string {
	i := strings.IndexAny(pattern, `*?[{\`)
	if i < 0 {
		return pattern
	}
	p := pattern[:i]
	if j := strings.LastIndexByte(p, '/'); j >= 0 {
		return p[:j]
	}
	return ""
}
