package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/elicit-dev/elicit/internal/safefile"
	"github.com/elicit-dev/elicit/permissions"
)

// A project's rules are the rules "always allow here" wrote for one
// directory: a file of their own beside the config file
// (projects/NAME.toml, NAME made from the directory), so that elicit
// rewrites its own file and never the user's config file. It holds the
// directory it is for and a [permissions] table:
//
//	dir = "/home/me/src/app"
//
//	[permissions]
//	allow = ["Bash(npm test:*)"]
//
// It is read with the config file's trust check, and refused when its
// dir is not the session's directory.

// projectFile is a project file's shape.
type projectFile struct {
	Dir         string       `toml:"dir"`
	Permissions *Permissions `toml:"permissions"`
}

// Project is the rules file of one directory.
type Project struct {
	// Path is the file; Dir the directory whose rules it holds.
	Path, Dir string
}

// ProjectFor is the rules file for directory dir (absolute), beside the
// config file at configPath.
func ProjectFor(configPath, dir string) Project {
	sum := sha256.Sum256([]byte(dir))
	name := strings.Trim(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '-'
	}, dir), "-.")
	if len(name) > 80 {
		name = name[len(name)-80:]
	}
	file := name + "-" + hex.EncodeToString(sum[:4]) + ".toml"
	return Project{Path: filepath.Join(filepath.Dir(configPath), "projects", file), Dir: dir}
}

// Rules reads the project's rules; none when the file does not exist.
func (p Project) Rules() ([]*permissions.Rule, error) {
	f, data, err := p.read()
	if err != nil || f == nil {
		return nil, err
	}
	return parseRules(f.Permissions, "permissions", p.Path, p.Dir, ruleLines(data))
}

// read decodes the file (nil when there is none).
func (p Project) read() (*projectFile, []byte, error) {
	data, ok, err := trustedOrMissing(p.Path)
	if err != nil || !ok {
		return nil, nil, err
	}
	var f projectFile
	if err := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields().Decode(&f); err != nil {
		return nil, nil, decodeError(p.Path, err)
	}
	if f.Dir != p.Dir {
		return nil, nil, &Error{Path: p.Path, Msg: fmt.Sprintf("its rules are for %q, not for %q: move it away", f.Dir, p.Dir)}
	}
	if f.Permissions == nil {
		f.Permissions = &Permissions{}
	}
	return &f, data, nil
}

// Allow adds an allow rule to the project's file (made, with the
// projects directory, when missing); adding a rule it holds already
// changes nothing. The rule must read as one.
func (p Project) Allow(rule string) error {
	if _, err := permissions.Parse(rule, permissions.Allow, permissions.Source{File: p.Path}); err != nil {
		return err
	}
	return p.change(func(f *projectFile) bool {
		if slices.Contains(f.Permissions.Allow, rule) {
			return false
		}
		f.Permissions.Allow = append(f.Permissions.Allow, rule)
		return true
	})
}

// Remove takes a rule out of the project's file, from whichever list
// holds it; false when none does.
func (p Project) Remove(rule string) (bool, error) {
	found := false
	err := p.change(func(f *projectFile) bool {
		for _, l := range []*[]string{&f.Permissions.Allow, &f.Permissions.Ask, &f.Permissions.Deny} {
			if i := slices.Index(*l, rule); i >= 0 {
				*l = slices.Delete(*l, i, i+1)
				found = true
			}
		}
		return found
	})
	return found, err
}

// change reads the file under a lock (other elicit processes may write
// it too), lets edit change it, and replaces it atomically when it did.
func (p Project) change(edit func(*projectFile) bool) error {
	dir := filepath.Dir(p.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	lock, err := safefile.Append(filepath.Join(dir, ".lock"), 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	unlock, err := safefile.Lock(lock, safefile.LockTimeout)
	if err != nil {
		return err
	}
	defer unlock()
	f, _, err := p.read()
	if err != nil {
		return err
	}
	if f == nil {
		f = &projectFile{Dir: p.Dir, Permissions: &Permissions{}}
	}
	if !edit(f) {
		return nil
	}
	body, err := toml.Marshal(f)
	if err != nil {
		return err
	}
	text := append([]byte("# Permission rules elicit keeps for one directory (\"always allow here\").\n"+
		"# elicit rewrites this file: `/permissions` in a session lists and removes rules.\n"), body...)
	return safefile.WriteAtomic(p.Path, text)
}
