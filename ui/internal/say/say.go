// Package say holds the words every front end uses for the same
// event (a file access, a stop reason, an agent's exit, a sign-in method),
// so the full screen, the line session and -p say them alike.
package say

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/ui/internal/opener"
)

// FileLine says in one line what the agent did with a file.
func FileLine(ev acpconn.FileAccess) string {
	path := sanitize.Line(ev.Path)
	switch ev.Op {
	case "refused":
		return fmt.Sprintf("refused the agent's %s of %s: %s", ev.Attempt, path, sanitize.Line(ev.Reason))
	case "read":
		if ev.Missing {
			return fmt.Sprintf("the agent read %s: a new file (none there yet), read as empty", path)
		}
		return fmt.Sprintf("the agent read %s (%s)", path, Plural(ev.Lines, "line", "lines"))
	case "write":
		if ev.Created {
			return fmt.Sprintf("the agent created %s (%d bytes)", path, ev.Bytes)
		}
		return fmt.Sprintf("the agent wrote %s (%d bytes)", path, ev.Bytes)
	}
	return ""
}

// Plural is "1 line", "2 lines".
func Plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// StopReason shows a turn's stop reason, which the agent chose.
func StopReason(s string) string { return strings.ReplaceAll(sanitize.ID(s), "_", " ") }

// ExitWhy says how the agent ended.
func ExitWhy(ev acpconn.AgentExited) string {
	// A remote agent's end is its connection's error, which can carry the
	// server's words (a WebSocket close reason): shown as safe text too.
	why := sanitize.Line(ev.Exit.String())
	if ev.Reason != "" {
		why = sanitize.Line(ev.Reason) + "; " + why
	}
	return why
}

// MethodLabel says what picking a method does.
func MethodLabel(m acpconn.AuthMethod) string {
	label := m.Name
	if m.Description != "" && !strings.EqualFold(strings.TrimSpace(m.Description), m.Name) {
		label += " — " + m.Description
	}
	switch m.Kind {
	case acpconn.AuthTerminal:
		if m.Guess {
			label += "\n  runs in this terminal, once you checked it (" + acpconn.GuessNote + "): " + m.CommandLine()
		} else {
			label += "\n  runs in this terminal: " + m.CommandLine()
		}
	case acpconn.AuthEnvVar:
		label += "\n  asks for " + VarNames(m) + " (in memory, this run only)"
	case acpconn.AuthAPIKey:
		label += "\n  asks for a key (sent to the agent's sign-in only)"
	}
	return label
}

// VarNames lists the variables an env_var method asks for.
func VarNames(m acpconn.AuthMethod) string {
	names := make([]string, len(m.Vars))
	for i, v := range m.Vars {
		names[i] = sanitize.Line(v.Name)
	}
	return strings.Join(names, ", ")
}

// SignInReason is the agent's words for a failed sign-in, else the
// error's, on one line.
func SignInReason(err error) string {
	if r := acpconn.AgentReason(err); r != "" {
		return r
	}
	return sanitize.Line(err.Error())
}

// SignIn says how a sign-in the session opener made without asking went:
// "signed in with Gemini API key (the key in GEM_KEY)", or why it did not
// work (ok false).
func SignIn(at opener.Attempt) (text string, ok bool) {
	if at.Err == nil {
		return "signed in with " + at.Method.Name + " (" + at.Why + ")", true
	}
	return "signing in with " + at.Method.Name + " (" + at.Why + ") did not work: " + SignInReason(at.Err), false
}

// RelPath shows a location inside the session directory root relative to
// it (an agent sends absolute paths); others stay as they are.
func RelPath(root, p string) string {
	if root == "" {
		return p
	}
	if rest, ok := strings.CutPrefix(p, root+string(filepath.Separator)); ok {
		return rest
	}
	return p
}
