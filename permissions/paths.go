package permissions

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// anchor is what a path rule's pattern is relative to, as Claude Code
// reads its start: `//` the file system's root, `~/` the home directory,
// `/` the directory of the settings file, and anything else the session's
// directory.
type anchor int

const (
	anchorCwd anchor = iota
	anchorRoot
	anchorHome
	anchorSettings
)

// pathPattern is a file rule's gitignore-style pattern.
type pathPattern struct {
	anchor  anchor
	pattern string // doublestar syntax, relative to the anchor
	dirOnly bool   // written with a trailing "/": it names a directory's contents
}

// compilePath reads a file rule's specifier. A pattern relative to the
// session directory with no "/" in it matches at any depth below it
// (`*.env`), as in .gitignore; a "/" anywhere else anchors it
// (`src/**`, `./.env`). A pattern that names a directory names every
// file under it.
func compilePath(spec string) (*pathPattern, error) {
	p := &pathPattern{}
	s := strings.TrimSpace(spec)
	switch {
	case strings.HasPrefix(s, "//"):
		p.anchor, s = anchorRoot, s[2:]
	case strings.HasPrefix(s, "~/"):
		p.anchor, s = anchorHome, s[2:]
	case s == "~":
		p.anchor, s = anchorHome, "**"
	case strings.HasPrefix(s, "/"):
		p.anchor, s = anchorSettings, s[1:]
	case strings.HasPrefix(s, "./"):
		s = s[2:]
	default:
		if !strings.Contains(strings.TrimSuffix(s, "/"), "/") {
			s = "**/" + s // no slash: at any depth, as in .gitignore
		}
	}
	if strings.HasSuffix(s, "/") {
		p.dirOnly, s = true, strings.TrimRight(s, "/")
	}
	if s == "" || s == "**/**" || s == "**/" {
		s = "**"
	}
	if !doublestar.ValidatePattern(s) {
		return nil, fmt.Errorf("%q is not a valid path pattern (gitignore style: *, **, ?, [abc], {a,b})", spec)
	}
	p.pattern = s
	return p, nil
}

// Env is where a session runs, for the rules' paths.
type Env struct {
	Cwd  string // the session's directory
	Home string // the user's home directory
}

// match reports whether file (absolute) is one the pattern names; src is
// where the rule was written (its "/path" base).
func (p *pathPattern) match(file string, env Env, src Source) bool {
	var base string
	switch p.anchor {
	case anchorRoot:
		base = "/"
	case anchorHome:
		base = env.Home
	case anchorSettings:
		base = src.base()
	default:
		base = env.Cwd
	}
	if base == "" || !filepath.IsAbs(file) {
		return false
	}
	rel, err := filepath.Rel(base, file)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return false
	}
	rel = filepath.ToSlash(rel)
	if !p.dirOnly && matchGlob(p.pattern, rel) {
		return true
	}
	// A directory the pattern names holds the file: .gitignore's rule.
	for dir := parent(rel); dir != ""; dir = parent(dir) {
		if matchGlob(p.pattern, dir) {
			return true
		}
	}
	return false
}

// parent is rel's parent directory ("" at the top).
func parent(rel string) string {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return ""
	}
	return rel[:i]
}

func matchGlob(pattern, rel string) bool {
	ok, err := doublestar.Match(pattern, rel)
	return err == nil && ok
}
