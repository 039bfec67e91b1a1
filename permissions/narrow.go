package permissions

import (
	"net/url"
	"path/filepath"
	"strings"
	"unicode"
)

// Narrowest is the narrowest rule that names this call, for "always
// allow here": `Bash(COMMAND:*)` for one simple command (that command, with
// or without more words after it), `Edit(PATH)` for one file (anchored
// where it is: `./a.go` or `src/a.go` in the session directory, `//PATH`
// outside it), `WebFetch(domain:HOST)` for the pages of one host, the
// tool's name for an MCP tool or another named tool. ok is false when no
// rule can name the call alone: several commands or files, a command with
// a `*` or a control character, an unnamed tool.
func Narrowest(c Call, env Env) (text string, ok bool) {
	switch c.Tool {
	case "":
		return "", false
	case "Bash":
		cmd := strings.TrimSpace(c.Command)
		cmds, safe := commands(cmd)
		if !safe || len(cmds) != 1 || cmds[0].allow[0] != cmd || strings.ContainsAny(cmd, "*") || hasControl(cmd) {
			return "", false
		}
		text = "Bash(" + cmd + ":*)"
	case "Edit", "Read":
		if len(c.Paths) != 1 || hasControl(c.Paths[0]) {
			return "", false
		}
		text = c.Tool + "(" + pathSpec(c.Paths[0], env) + ")"
	case "WebFetch":
		host := ""
		for _, raw := range c.URLs {
			u, err := url.Parse(raw)
			h := ""
			if err == nil {
				h = strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
			}
			if h == "" || host != "" && h != host {
				return "", false
			}
			host = h
		}
		if host == "" {
			return "", false
		}
		text = "WebFetch(domain:" + host + ")"
	default:
		text = c.Tool
	}
	// What it writes must read back as a rule that names this call.
	r, err := Parse(text, Allow, Source{})
	if err != nil || !NewSet(r).allowsAll(c, env) {
		return "", false
	}
	return text, true
}

// allowsAll reports whether the set's allow rules allow c.
func (s *Set) allowsAll(c Call, env Env) bool { return s.Decide(c, env).Verdict == Allow }

// pathSpec is file as a rule's path, anchored: relative to the session
// directory when inside it (with ./ when it has no directory, which would
// match at any depth), else from the file system's root (//).
func pathSpec(file string, env Env) string {
	p := ""
	if env.Cwd != "" {
		if rel, err := filepath.Rel(env.Cwd, file); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			p = filepath.ToSlash(rel)
			if !strings.Contains(p, "/") {
				p = "./" + p
			}
		}
	}
	if p == "" {
		p = "/" + filepath.ToSlash(file)
	}
	return escapeGlob(p)
}

// escapeGlob escapes what a path pattern reads as a wildcard.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[]{}\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' }) >= 0
}
