package permissions

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Verdict is what a rule says of the calls it matches.
type Verdict int

// The verdicts, weakest first; None is no rule's.
const (
	None Verdict = iota
	Allow
	Ask
	Deny
)

// String is the verdict as the config file spells its list: "allow",
// "ask" or "deny" ("" for None).
func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return ""
}

// Source says where a rule was written.
type Source struct {
	// File is the file as the user named it (or elicit found it).
	File string
	// Line is the rule's line in File (0 when unknown).
	Line int
	// Dir is what a rule's "/path" is relative to: the directory of the
	// settings file, as Claude Code reads it ("" : File's directory).
	Dir string
}

// String is the file and the line, as compilers write them.
func (s Source) String() string {
	if s.Line > 0 {
		return fmt.Sprintf("%s:%d", s.File, s.Line)
	}
	return s.File
}

// base is the directory "/path" rules are relative to.
func (s Source) base() string {
	if s.Dir != "" {
		return s.Dir
	}
	if s.File == "" {
		return ""
	}
	return filepath.Dir(s.File)
}

// Rule is one permission rule: a tool, and what of its calls it names.
type Rule struct {
	// Text is the rule as written, spaces around it trimmed.
	Text    string
	Verdict Verdict
	Source  Source

	tool string // the name before the parenthesis
	spec string // what the parentheses hold ("" : the whole tool)

	bash   *bashPattern
	path   *pathPattern
	domain string // WebFetch(domain:...), lower case
}

// Tool is the tool the rule names, as written: Bash, Edit, mcp__server,
// or any tool name.
func (r *Rule) Tool() string { return r.tool }

// Specifier is what the rule's parentheses hold; "" for a rule that names
// the whole tool (`Bash`, or `Bash(*)`).
func (r *Rule) Specifier() string { return r.spec }

// String is the rule and where it was written: `Bash(npm test:*) in
// config.toml:3`.
func (r *Rule) String() string { return r.Text + " in " + r.Source.String() }

// Short is the rule and its file's name, for one-line notes: `Bash(npm
// test:*) in config.toml`.
func (r *Rule) Short() string {
	if r.Source.File == "" {
		return r.Text
	}
	return r.Text + " in " + filepath.Base(r.Source.File)
}

// Error is a rule that cannot be read: the file, the line, the rule and
// what is wrong with it.
type Error struct {
	Source Source
	Rule   string
	Msg    string
}

// Error says the place, the rule and the problem:
// `config.toml:3: rule "Bash(npm": ...`.
func (e *Error) Error() string {
	where := e.Source.String()
	if where != "" {
		where += ": "
	}
	return fmt.Sprintf("%srule %q: %s", where, e.Rule, e.Msg)
}

// The tools whose specifier elicit reads. File rules (Edit and the tools
// Claude Code's Edit rules cover, and Read) take gitignore-style paths.
var (
	fileChangeTools = map[string]bool{"Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true}
	pathTools       = map[string]bool{"Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true, "Read": true}
)

// mcpPrefix starts every MCP tool's name, as Claude Code spells them:
// mcp__SERVER__TOOL.
const mcpPrefix = "mcp__"

// Parse reads one rule, `Tool` or `Tool(specifier)`, with the verdict of
// the list it is in and where it was written. The error is an *Error.
func Parse(text string, v Verdict, src Source) (*Rule, error) {
	text = strings.TrimSpace(text)
	r := &Rule{Text: text, Verdict: v, Source: src}
	fail := func(format string, args ...any) (*Rule, error) {
		return nil, &Error{Source: src, Rule: text, Msg: fmt.Sprintf(format, args...)}
	}
	if text == "" {
		return fail("empty: a rule is Tool or Tool(specifier)")
	}
	if !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
		return fail("not valid UTF-8 text")
	}
	name, spec, hasSpec := strings.Cut(text, "(")
	if hasSpec {
		if !strings.HasSuffix(spec, ")") {
			return fail("no closing parenthesis at the end: a rule is Tool or Tool(specifier)")
		}
		spec = spec[:len(spec)-1]
		if strings.TrimSpace(spec) == "" {
			return fail("empty parentheses: leave them out to name every call of %s", name)
		}
	}
	if !validToolName(strings.TrimSuffix(name, "__*")) || strings.HasSuffix(name, "__*") && !strings.HasPrefix(name, mcpPrefix) {
		return fail("%q is not a tool name (letters, digits, '_', '-' and '.'; a rule is Tool or Tool(specifier))", name)
	}
	if rest, ok := strings.CutPrefix(name, mcpPrefix); ok {
		server, _, _ := strings.Cut(rest, "__")
		if server == "" {
			return fail("an MCP rule names a server: mcp__SERVER or mcp__SERVER__TOOL")
		}
	}
	r.tool = name
	if spec == "*" {
		spec = "" // the whole tool, as Claude Code reads Bash(*)
	}
	r.spec = spec
	if spec == "" {
		return r, nil
	}
	var err error
	switch {
	case name == "Bash":
		r.bash, err = compileBash(spec)
	case pathTools[name]:
		r.path, err = compilePath(spec)
	case name == "WebFetch":
		r.domain, err = compileDomain(spec)
	}
	if err != nil {
		return fail("%v", err)
	}
	return r, nil
}

// validToolName reports whether s can name a tool.
func validToolName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		ok := c == '_' || c == '-' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !ok {
			return false
		}
	}
	return true
}

// compileDomain reads WebFetch's `domain:HOST` (or `domain:*.HOST`, for
// the host's subdomains).
func compileDomain(spec string) (string, error) {
	host, ok := strings.CutPrefix(spec, "domain:")
	if !ok {
		return "", fmt.Errorf("WebFetch takes domain:HOST")
	}
	host = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(host)), ".")
	check := strings.TrimPrefix(host, "*.")
	if check == "" || strings.ContainsAny(check, "/:@?#*[] ") {
		return "", fmt.Errorf("domain:%s is not a host name (domain:docs.example.com, or domain:*.example.com for its subdomains)", host)
	}
	return host, nil
}

// reads says whether the rule reads its specifier: a specifier of any
// other tool (Task(x), WebSearch(x)) names nothing elicit can tell.
func (r *Rule) reads() bool {
	return r.spec == "" || r.bash != nil || r.path != nil || r.domain != ""
}
