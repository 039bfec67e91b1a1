package acpconn

import (
	"path"
	"path/filepath"
	"strings"
)

// Files that run code later: a write there is a command the user runs
// without knowing (git's hooks and config, direnv's .envrc, the shell's
// rc files when the session directory is the home directory). Such a
// write always asks, even under -p --approve and after an approved diff,
// unless Config.AllowWrites names it.

// codeDirs are directories, at any depth, whose every file runs code.
var codeDirs = map[string]string{
	".git": "git runs hooks from .git/hooks and commands named in .git/config (core.fsmonitor, aliases, filters) on your next git command",
}

// codeNames are file names, at any depth, that run code.
var codeNames = map[string]string{
	".envrc": "direnv runs .envrc when you enter its directory",
	".git":   "a .git file points git at another repository, whose hooks and config then run",
}

// codeAtRoot are files and directories at the top of the session
// directory that run code (they matter when it is the home directory or a
// project a tool trusts).
var codeAtRoot = map[string]string{
	".bashrc": "your shell", ".bash_profile": "your shell", ".bash_login": "your shell", ".bash_logout": "your shell",
	".profile": "your shell", ".zshrc": "your shell", ".zshenv": "your shell", ".zprofile": "your shell",
	".zlogin": "your shell", ".zlogout": "your shell", ".kshrc": "your shell", ".mkshrc": "your shell",
	".cshrc": "your shell", ".tcshrc": "your shell", ".login": "your shell", ".logout": "your shell",
	".xprofile": "your X session", ".xinitrc": "your X session", ".xsession": "your X session",
	".config/fish":            "fish",
	".config/autostart":       "your desktop session",
	".config/systemd":         "systemd",
	".ssh":                    "ssh (its config can run a ProxyCommand; authorized_keys lets others in)",
	".npmrc":                  "npm (its options can run commands)",
	".husky":                  "husky, as git hooks",
	".githooks":               "git, as hooks (core.hooksPath)",
	".pre-commit-config.yaml": "pre-commit, on every commit",
	".vscode":                 "VS Code (tasks run when the folder opens; settings name programs)",
	".devcontainer":           "your dev container, when it starts",
	".mise.toml":              "mise, when you enter the directory",
	"mise.toml":               "mise, when you enter the directory",
}

// CodeRisk says why a write to rel (a path relative to the session
// directory) would run code later, or "" when it would not.
func CodeRisk(rel string) string {
	rel = filepath.ToSlash(filepath.Clean(rel))
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		for name, why := range codeDirs {
			if strings.EqualFold(p, name) && i < len(parts)-1 {
				return why
			}
		}
	}
	for name, why := range codeNames {
		if strings.EqualFold(parts[len(parts)-1], name) {
			return why
		}
	}
	for name, who := range codeAtRoot {
		if strings.EqualFold(rel, name) || len(rel) > len(name) && strings.EqualFold(rel[:len(name)], name) && rel[len(name)] == '/' {
			return who + " runs what " + name + " holds"
		}
	}
	return ""
}

// allowedWrite reports whether the user allowed writes to rel although it
// runs code later (Config.AllowWrites: a glob, or a directory that names
// everything under it).
func (c *Conn) allowedWrite(rel string) bool {
	rel = filepath.ToSlash(filepath.Clean(rel))
	for _, pat := range c.cfg.AllowWrites {
		pat = strings.TrimSuffix(filepath.ToSlash(filepath.Clean(pat)), "/**")
		if ok, _ := path.Match(pat, rel); ok || strings.HasPrefix(rel, pat+"/") {
			return true
		}
	}
	return false
}

// codeRisk is CodeRisk unless the user allowed the path.
func (c *Conn) codeRisk(rel string) string {
	if c.allowedWrite(rel) {
		return ""
	}
	return CodeRisk(rel)
}
