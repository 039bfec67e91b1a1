package permissions

import (
	"net/url"
	"slices"
	"strings"
	"sync"
)

// Set is the rules in force, in the order they were read (the config
// file's, the agent's, the project's, then each --policy file's). A nil
// *Set holds none. It is safe for concurrent use: elicit's own gates
// decide on the connection's goroutines while the session adds a rule
// ("always allow here") or removes one (/permissions).
type Set struct {
	mu    sync.RWMutex
	rules []*Rule
}

// NewSet holds rules, in this order.
func NewSet(rules ...*Rule) *Set { return &Set{rules: rules} }

// Add appends rules.
func (s *Set) Add(rules ...*Rule) {
	s.mu.Lock()
	s.rules = append(s.rules, rules...)
	s.mu.Unlock()
}

// Rules are the rules, in order (a copy).
func (s *Set) Rules() []*Rule {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.rules)
}

// Len is how many rules the set holds.
func (s *Set) Len() int { return len(s.Rules()) }

// Remove takes r out of the set; false when it is not there.
func (s *Set) Remove(r *Rule) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.rules {
		if x == r {
			s.rules = slices.Delete(s.rules, i, i+1)
			return true
		}
	}
	return false
}

// Decision is what the rules say of a call: the verdict, and the rule
// that gave it (nil for None).
type Decision struct {
	Verdict Verdict
	Rule    *Rule
}

// Decide is the rules' word on a call: Deny when a deny rule matches, else
// Ask when an ask rule does, else Allow when allow rules do, else None:
// whoever decides without rules decides. The first matching rule of the
// strongest kind is the one named. A command line is judged by each
// simple command it runs: any one a deny (or ask) rule matches decides,
// and it is allowed only when every one of them is.
func (s *Set) Decide(c Call, env Env) Decision {
	if s == nil || c.Tool == "" {
		return Decision{}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, v := range []Verdict{Deny, Ask} {
		for _, r := range s.rules {
			if r.Verdict == v && r.matchesAny(c, env) {
				return Decision{Verdict: v, Rule: r}
			}
		}
	}
	if r := s.allows(c, env); r != nil {
		return Decision{Verdict: Allow, Rule: r}
	}
	return Decision{}
}

// allows is the first allow rule that, with the others, allows every
// part of the call (each simple command, each file, each URL); nil when
// some part is left unallowed.
func (s *Set) allows(c Call, env Env) *Rule {
	var first *Rule
	each := func(parts int, ok func(r *Rule, i int) bool) *Rule {
		for i := range parts {
			var by *Rule
			for _, r := range s.rules {
				if r.Verdict == Allow && r.sameTool(c) && ok(r, i) {
					by = r
					break
				}
			}
			if by == nil {
				return nil
			}
			if first == nil {
				first = by
			}
		}
		return first
	}
	if r := s.wholeTool(c); r != nil {
		return r
	}
	switch {
	case c.Tool == "Bash":
		cmds, safe := commands(c.Command)
		if !safe || len(cmds) == 0 {
			return nil
		}
		return each(len(cmds), func(r *Rule, i int) bool { return r.bash != nil && anyMatch(r.bash, cmds[i].allow) })
	case len(c.Paths) > 0:
		return each(len(c.Paths), func(r *Rule, i int) bool { return r.path != nil && r.path.match(c.Paths[i], env, r.Source) })
	case len(c.URLs) > 0:
		return each(len(c.URLs), func(r *Rule, i int) bool { return r.domain != "" && domainMatch(r.domain, c.URLs[i]) })
	}
	return nil
}

// wholeTool is the first allow rule that names every call of c's tool.
func (s *Set) wholeTool(c Call) *Rule {
	for _, r := range s.rules {
		if r.Verdict == Allow && r.spec == "" && r.sameTool(c) {
			return r
		}
	}
	return nil
}

// matchesAny reports whether r names the call or any part of it (one of
// its simple commands, files or URLs): what a deny or ask rule needs.
func (r *Rule) matchesAny(c Call, env Env) bool {
	if !r.sameTool(c) {
		return false
	}
	switch {
	case r.spec == "":
		return true
	case r.bash != nil:
		if r.bash.match(c.Command) {
			return true
		}
		cmds, _ := commands(c.Command)
		for _, c := range cmds {
			if anyMatch(r.bash, c.any) {
				return true
			}
		}
	case r.path != nil:
		for _, p := range c.Paths {
			if r.path.match(p, env, r.Source) {
				return true
			}
		}
	case r.domain != "":
		for _, u := range c.URLs {
			if domainMatch(r.domain, u) {
				return true
			}
		}
	}
	return false
}

func anyMatch(b *bashPattern, forms []string) bool {
	for _, f := range forms {
		if b.match(f) {
			return true
		}
	}
	return false
}

// sameTool reports whether r names c's tool: Edit, Write, MultiEdit and
// NotebookEdit every change to a file; mcp__SERVER every tool of that
// server (and mcp__SERVER__* too); any other name the tool of that name
// (rules' or the agent's).
func (r *Rule) sameTool(c Call) bool {
	switch {
	case fileChangeTools[r.tool]:
		return c.Tool == "Edit"
	case strings.HasPrefix(r.tool, mcpPrefix):
		if !strings.HasPrefix(c.Tool, mcpPrefix) {
			return false
		}
		if server, ok := strings.CutSuffix(r.tool, "__*"); ok {
			return strings.HasPrefix(c.Tool, server+"__")
		}
		rest := strings.TrimPrefix(r.tool, mcpPrefix)
		if !strings.Contains(rest, "__") { // mcp__SERVER
			return strings.HasPrefix(c.Tool, r.tool+"__")
		}
		return c.Tool == r.tool
	}
	return r.tool == c.Tool || c.Name != "" && r.tool == c.Name
}

// domainMatch reports whether the URL's host is the rule's domain (or,
// for *.HOST, one of its subdomains).
func domainMatch(domain, raw string) bool {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return false
	}
	if suffix, ok := strings.CutPrefix(domain, "*."); ok {
		return strings.HasSuffix(host, "."+suffix)
	}
	return host == domain
}
