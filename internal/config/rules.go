package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/elicit-dev/elicit/internal/safefile"
	"github.com/elicit-dev/elicit/permissions"
)

// Permissions is a [permissions] table: lists of permission rules in
// Claude Code's syntax (package permissions). It is read in the config
// file (for every agent, and under [agents.NAME] for one), in --policy
// files and in the project files "always allow here" writes.
type Permissions struct {
	Allow []string `toml:"allow,omitempty"`
	Ask   []string `toml:"ask,omitempty"`
	Deny  []string `toml:"deny,omitempty"`
}

// lists are the table's lists with their verdicts, in the order rules
// are read.
func (p *Permissions) lists() []struct {
	key  string
	v    permissions.Verdict
	list []string
} {
	if p == nil {
		return nil
	}
	return []struct {
		key  string
		v    permissions.Verdict
		list []string
	}{{"allow", permissions.Allow, p.Allow}, {"ask", permissions.Ask, p.Ask}, {"deny", permissions.Deny, p.Deny}}
}

// parseRules reads the rules of table (its dotted key in the file, e.g.
// "permissions" or "agents.claude.permissions") with each rule's line
// (from lines, see ruleLines); dir is what their "/path" is relative to.
func parseRules(p *Permissions, table, file, dir string, lines map[string][]int) ([]*permissions.Rule, error) {
	var out []*permissions.Rule
	for _, l := range p.lists() {
		at := lines[table+"."+l.key]
		for i, text := range l.list {
			src := permissions.Source{File: file, Dir: dir}
			if i < len(at) {
				src.Line = at[i]
			}
			r, err := permissions.Parse(text, l.v, src)
			if err != nil {
				var e *permissions.Error
				if errors.As(err, &e) {
					return nil, &Error{Path: file, Line: src.Line, Msg: fmt.Sprintf("[%s] %s: rule %q: %s", table, l.key, e.Rule, e.Msg)}
				}
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// ruleLines maps the dotted key of every array of strings in a TOML
// document ("permissions.allow", "agents.claude.permissions.deny") to
// the line of each element, read with go-toml's parser (the decoder keeps
// no positions). A document it cannot parse gives what it read so far.
func ruleLines(data []byte) map[string][]int {
	out := map[string][]int{}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyOf(e.Key())
		case unstable.KeyValue:
			arrayLines(&p, append(slices.Clone(table), keyOf(e.Key())...), e.Value(), out)
		}
	}
	return out
}

// arrayLines records the lines of the strings of v (an array, or an
// inline table holding arrays) under key.
func arrayLines(p *unstable.Parser, key []string, v *unstable.Node, out map[string][]int) {
	switch v.Kind {
	case unstable.Array:
		k := strings.Join(key, ".")
		it := v.Children()
		for it.Next() {
			n := it.Node()
			line := 0
			if n.Kind == unstable.String && n.Raw.Length > 0 {
				line = p.Shape(n.Raw).Start.Line
			}
			out[k] = append(out[k], line)
		}
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			if kv := it.Node(); kv.Kind == unstable.KeyValue {
				arrayLines(p, append(slices.Clone(key), keyOf(kv.Key())...), kv.Value(), out)
			}
		}
	}
}

func keyOf(it unstable.Iterator) []string {
	var k []string
	for it.Next() {
		k = append(k, string(it.Node().Data))
	}
	return k
}

// policyFile is a --policy file's shape: a [permissions] table and
// nothing else.
type policyFile struct {
	Permissions *Permissions `toml:"permissions"`
}

// LoadPolicy reads a --policy file: a [permissions] table (allow, ask,
// deny), as in the config file. It gives the agent's tool calls without a
// person, so, like the config file, one that someone else could have
// written is refused. Errors are *Error, with the line.
func LoadPolicy(path string) ([]*permissions.Rule, error) {
	data, err := readTrusted(path)
	if err != nil {
		return nil, err
	}
	var f policyFile
	if err := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields().Decode(&f); err != nil {
		return nil, decodeError(path, err)
	}
	if f.Permissions == nil {
		return nil, &Error{Path: path, Msg: "no [permissions] table (allow, ask, deny: lists of rules)"}
	}
	return parseRules(f.Permissions, "permissions", path, absDir(path), ruleLines(data))
}

// absDir is the absolute directory of path, what its rules' "/path" is
// relative to.
func absDir(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return filepath.Dir(abs)
	}
	return filepath.Dir(path)
}

// RulesFor is the config file's rules for agent: the [permissions]
// table's, then the [agents.NAME.permissions] table's.
func (c *Config) RulesFor(agent string) []*permissions.Rule {
	return slices.Concat(c.Rules, c.agentRules[agent])
}

// readRules reads the rules of the file's tables, with their lines.
func (c *Config) readRules(f *fileConfig, data []byte) error {
	lines := ruleLines(data)
	dir := ""
	if c.Path != "" {
		dir = absDir(c.Path)
	}
	var err error
	if c.Rules, err = parseRules(f.Permissions, "permissions", c.Path, dir, lines); err != nil {
		return err
	}
	names := make([]string, 0, len(c.AgentEntries))
	for name := range c.AgentEntries {
		names = append(names, name)
	}
	slices.Sort(names) // the first bad table in a stable order
	for _, name := range names {
		a := c.AgentEntries[name]
		rules, err := parseRules(a.Permissions, "agents."+name+".permissions", c.Path, dir, lines)
		if err != nil {
			return err
		}
		if len(rules) > 0 {
			if c.agentRules == nil {
				c.agentRules = map[string][]*permissions.Rule{}
			}
			c.agentRules[name] = rules
		}
	}
	return nil
}

// trustedOrMissing reads a file elicit wrote for the user (a project's
// rules), with the config file's trust check; ok is false when there is
// none.
func trustedOrMissing(path string) (data []byte, ok bool, err error) {
	data, err = safefile.ReadTrusted(path, maxConfigBytes, safefile.Commands)
	if err != nil {
		if isNotExist(err) {
			return nil, false, nil
		}
		return nil, false, trustError(err, path)
	}
	return data, true, nil
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
