package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/internal/hostile"
	"github.com/elicit-dev/elicit/internal/termout"
	"github.com/elicit-dev/elicit/internal/testkit"
)

// TestHostilePromptPipe: `-p` with stdout and stderr pipes: not one ESC or
// C1 byte, whatever the agent sent (message, errors, stderr, stop reason).
func TestHostilePromptPipe(t *testing.T) {
	for _, sc := range []string{hostile.ScenarioTurn, hostile.ScenarioExit, hostile.ScenarioRefuse} {
		t.Run("scenario="+sc, func(t *testing.T) {
			stdout, stderr := runPipe(t, sc, "", agentArgs("-p", "go")...)
			check(t, "stdout", append(stdout, '\n'), termout.Pipe)
			check(t, "stderr", stderr, termout.Pipe)
			if sc == hostile.ScenarioTurn {
				ran(t, "stdout", stdout, "message chunk:")
				ran(t, "stderr", stderr, "the turn ended")
				if !bytes.Contains(stdout, []byte("\u200fRLM")) {
					t.Error("-p to a pipe does not keep the agent's RLM")
				}
			}
		})
	}
}

// TestHostilePromptTerminal: `-p` on a terminal: no escape at all, bidi and
// invisible characters shown.
func TestHostilePromptTerminal(t *testing.T) {
	tm := startPTY(t, hostile.ScenarioTurn, agentArgs("-p", "go")...)
	out := fromTTY(tm.finish())
	ran(t, "pty", out, "message chunk:")
	check(t, "pty", out, termout.Plain)
}

// TestHostileAccessible: the accessible session answering the permission,
// typing a wrong value into the form, then ending its input; and the
// sign-in and refused-session paths.
func TestHostileAccessible(t *testing.T) {
	t.Run("turn", func(t *testing.T) {
		tm := startPTY(t, hostile.ScenarioTurn, agentArgs("--accessible")...)
		tm.waitFor("Type a prompt")
		tm.send("go\r")
		tm.waitFor("Type an option's number")
		tm.send("2\r")
		tm.waitFor("Enter a number between 1 and 2")
		tm.send("x\r")
		tm.waitFor("Invalid: must be a number")
		tm.send("\x04") // the form's, then the URLs', input ends: cancelled
		tm.waitFor("The turn ended")
		tm.send("\x04")
		out := fromTTY(tm.finish())
		ran(t, "accessible", out, "message chunk:")
		check(t, "accessible", out, termout.Plain)
	})
	t.Run("auth", func(t *testing.T) {
		tm := startPTY(t, hostile.ScenarioAuth, agentArgs("--accessible")...)
		tm.waitFor("Method number")
		tm.send("1\r")
		tm.waitFor("Type a prompt")
		tm.send("\x04")
		out := fromTTY(tm.finish())
		ran(t, "auth", out, "auth name:")
		check(t, "auth", out, termout.Plain)
	})
	t.Run("refused", func(t *testing.T) {
		tm := startPTY(t, hostile.ScenarioRefuse, agentArgs("--accessible")...)
		out := fromTTY(tm.finish())
		ran(t, "refused", out, "Could not start a session")
		check(t, "refused", out, termout.Plain)
	})
}

// TestHostileFullScreen: the full screen, prompting and pressing the keys
// that open each question and the pending-flows panel.
func TestHostileFullScreen(t *testing.T) {
	for _, sc := range []string{hostile.ScenarioTurn, hostile.ScenarioNoQuest} {
		t.Run("scenario="+sc, func(t *testing.T) {
			tm := startPTY(t, sc, agentArgs()...)
			tm.waitFor(connected)
			tm.send("go\r")
			// Answer what the turn asks: Enter chooses the permission's
			// selected reject, Esc cancels the form and each URL consent.
			tm.answerUntil("the turn's end", func() bool { return tm.seen("the turn ended") },
				reply{[]string{permissionKeys}, "\r"},
				reply{[]string{formKeys}, "\x1b"},
				reply{[]string{urlKeys, "https://paypal.com"}, "\x1b"},
				reply{[]string{urlKeys, "https://" + hostile.EvilHost + "/url"}, "\x1b"})
			// The flows panel (none is pending: nothing opens), then the
			// keys screen, open and close: F1's screen shows once the keys
			// before it were read.
			tm.send("\x07\x1b[B\r\x1bOP")
			tm.waitScreen("the keys screen", func(s string) bool { return strings.Contains(s, keysScreen) })
			tm.send("\x1b")
			tm.waitScreen("the keys screen closed", func(s string) bool { return !strings.Contains(s, keysScreen) })
			out := tm.quit()
			tm.ran("full screen", "chunk:", "stop", "ended")
			checkWith(t, "full screen", out, termout.Screen, true)
		})
	}
}

// TestHostileForm: `elicit form` with the hostile schema, on a terminal
// (full screen and accessible) and with no terminal.
func TestHostileForm(t *testing.T) {
	path := filepath.Join(t.TempDir(), "schema.json")
	if err := os.WriteFile(path, hostile.FormSchema(), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("screen", func(t *testing.T) {
		tm := startPTY(t, "", "form", path)
		// The key help shows once the form's grace period is over: from
		// then on its keys count.
		tm.waitScreen("the form", func(s string) bool { return strings.Contains(s, "schema title") && strings.Contains(s, formKeys) })
		tm.send("x\r\t\r") // a letter, then from field to field
		tm.send("\x1b")    // cancel, or ask to discard what the letter typed
		tm.waitUntil("the form cancelled or asking to discard", func() bool {
			return tm.seen(`"action":"cancel"`) || strings.Contains(tm.screen(), "yes, discard")
		})
		if !tm.seen(`"action":"cancel"`) {
			tm.send("y")
		}
		out := tm.finish()
		tm.ran("form", "schema title")
		check(t, "form", out, termout.Screen)
	})
	t.Run("accessible", func(t *testing.T) {
		tm := startPTY(t, "", "form", "--accessible", path)
		tm.waitFor("schema title")
		tm.send("x\r")
		tm.waitFor("Invalid")
		tm.send("\x04\x04")
		out := fromTTY(tm.finish())
		ran(t, "accessible form", out, "schema title")
		check(t, "accessible form", out, termout.Plain)
	})
	t.Run("no terminal", func(t *testing.T) {
		// --accept-defaults: the hostile defaults reach stdout (without
		// it, nobody chose, and only {"action":"cancel"} would).
		stdout, stderr := runPipe(t, "", string(hostile.FormSchema()), "form", "-", "--accept-defaults")
		check(t, "stdout", stdout, termout.Pipe)
		check(t, "stderr", stderr, termout.Pipe)
	})
}

// TestHostileURL: `elicit url` in text and JSON, to a pipe and a terminal.
// The JSON must still carry the URL exactly.
func TestHostileURL(t *testing.T) {
	urls := []string{
		"https://pay\u200bpal.com/\u202egnp.exe?q=" + hostile.Short("query"),
		"https://" + hostile.EvilHost + "/" + hostile.Payload("url"),
		hostile.Payload("not a url"),
	}
	// The URLs hold NUL, which no argument can: they come on stdin.
	input := strings.Join(urls, "\n") + "\n"
	for _, asJSON := range []bool{false, true} {
		args := []string{"url"}
		if asJSON {
			args = append(args, "--json")
		}
		args = append(args, "-")
		stdout, stderr := runPipe(t, "", input, args...)
		check(t, "pipe stdout", stdout, termout.Pipe)
		if len(stderr) > 0 {
			check(t, "pipe stderr", stderr, termout.Pipe)
		}
		cmd := command("", args...)
		cmd.Stdin = strings.NewReader(input)
		tm := startPTYWith(t, cmd)
		out := fromTTY(tm.finish())
		check(t, "pty", out, termout.Plain)
		if asJSON {
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			for i, l := range lines {
				var r struct{ Input string }
				if err := json.Unmarshal([]byte(l), &r); err != nil || r.Input != urls[i] {
					t.Errorf("JSON line %d: input %q (%v), want %q", i, r.Input, err, urls[i])
				}
			}
		}
	}
}

// TestHostileServeAttach: `elicit serve -p` with the hostile agent, its
// questions answered by `elicit attach --answers`, every stream a pipe:
// not one ESC or C1 byte on any of them, whatever the agent put in its
// messages, titles and option labels (they travel to the client over AHP).
func TestHostileServeAttach(t *testing.T) {
	dir := t.TempDir()
	tok := filepath.Join(dir, "token")
	srv := command(hostile.ScenarioTurn, agentArgs("serve", "--token-file", tok, "-p", "go")...)
	var sout, serr testkit.Buffer
	srv.Stdout, srv.Stderr = &sout, &serr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill() })
	attachLine := regexp.MustCompile(`ws://127\.0\.0\.1:[0-9]+/`)
	serr.WaitUntil(t, "attach line", func(out string) bool { return attachLine.MatchString(out) })
	url := attachLine.FindString(serr.String())
	answers := filepath.Join(dir, "answers.json")
	os.WriteFile(answers, []byte(`{}`), 0o600)
	aout, aerr := runPipe(t, "", "", "attach", url, "--token-file", tok, "--answers", answers)
	waitExit(t, srv, func() string { return "serve's stderr:\n" + serr.String() })
	if !bytes.Contains(aout, []byte(`"request":"q1"`)) {
		t.Fatalf("attach printed no completion; its stderr:\n%s\nserve's stderr:\n%s", aerr, serr.Bytes())
	}
	ran(t, "serve stdout", sout.Bytes(), "message chunk:")
	check(t, "serve stdout", append(sout.Bytes(), '\n'), termout.Pipe)
	check(t, "serve stderr", serr.Bytes(), termout.Pipe)
	check(t, "attach stdout", aout, termout.Pipe)
	if len(aerr) > 0 {
		check(t, "attach stderr", aerr, termout.Pipe)
	}
}
