// Package permissions decides an agent's permission requests by rules
// written in Claude Code's syntax, so that people can copy theirs:
// `Bash(npm test:*)`, `Edit(src/**)`, `WebFetch(domain:docs.example.com)`,
// `mcp__github__create_issue`. Deny rules win over ask rules, ask rules
// over allow rules; a call no rule names is left to whoever decides
// without rules (a person, or -p's refusal).
//
//	deny, _ := permissions.Parse("Bash(rm:*)", permissions.Deny, permissions.Source{File: "config.toml", Line: 3})
//	allow, _ := permissions.Parse("Bash", permissions.Allow, permissions.Source{File: "config.toml", Line: 2})
//	set := permissions.NewSet(allow, deny)
//	d := set.Decide(permissions.Describe(permissions.Tool{Name: "Bash", Input: in}, dir), permissions.Env{Cwd: dir, Home: home})
//	// d.Verdict: Allow, Ask, Deny or None; d.Rule: the rule that decided.
//
// The package is protocol-free: it reads a Tool (the tool call
// as any source describes it) and knows no wire format. Describe holds
// the one mapping from what agents send (their tool names, kinds, raw
// inputs and locations) to what rules name.
package permissions
