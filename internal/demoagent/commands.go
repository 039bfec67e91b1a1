package demoagent

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// command is one slash command of the demo agent.
type command struct {
	name string // without the slash
	hint string // what may follow the name, for available_commands_update and /help
	desc string
	run  func(t *turn, arg string) error
}

// commandTable lists the commands in /help order. It is a function, not a variable, because
// /help reads it.
func commandTable() []command {
	return []command{
		{"help", "", "List these commands", (*turn).helpCommand},
		{"form", "[name]", "Ask every kind of form, one after another (or just the named one)", (*turn).formCommand},
		{"url", "", "Ask you to open a local page whose Approve button completes the flow", (*turn).urlCommand},
		{"all", "", "Ask a form, a URL and a permission at once", (*turn).allCommand},
		{"edit", "", "Ask permission for an edit: a one-line change on line 30 of a 200-line file, as a diff", (*turn).editCommand},
		{"risky", "", "Ask to open a look-alike URL and to run rm -rf ~, at once (nothing runs)", (*turn).riskyCommand},
		{"legacy", "", "Fail the prompt with the legacy -32042 until a URL flow is done, then answer it", (*turn).legacyCommand},
		{"bad", "", "Send malformed elicitations and report how the client refused them", (*turn).badCommand},
		{"slow", "", "Stream for 30 seconds, so you can cancel it", (*turn).slowCommand},
		{"later", "[seconds]", "Wait, then ask for an edit (default 5 s: time to press Ctrl+Z, or to go elsewhere)", (*turn).laterCommand},
		{"flood", "N", "Stream N message chunks as fast as possible (benchmark)", (*turn).floodCommand},
		{"forms", "N", "Ask N small forms in a row and count the answers (benchmark)", (*turn).formsBench},
		{"exit", "[code]", "Exit the agent process mid-turn with that code (default 1)", (*turn).exitCommand},
	}
}

// availableCommands is the commands as the session's available_commands_update announces them.
func availableCommands() []acp.AvailableCommand {
	var out []acp.AvailableCommand
	for _, c := range commandTable() {
		ac := acp.AvailableCommand{Name: c.name, Description: c.desc}
		if c.hint != "" {
			ac.Input = &acp.AvailableCommandInput{Unstructured: &acp.UnstructuredCommandInput{Hint: c.hint}}
		}
		out = append(out, ac)
	}
	return out
}

// parseCommand splits "/name rest" into name and rest; "flood N" works without the slash.
// ok is false for a plain prompt.
func parseCommand(text string) (name, arg string, ok bool) {
	text = strings.TrimSpace(text)
	if rest, found := strings.CutPrefix(text, "/"); found {
		text = rest
	} else if f := strings.Fields(text); len(f) == 0 || !strings.EqualFold(f[0], "flood") {
		return "", "", false
	}
	name, arg, _ = strings.Cut(text, " ")
	if name == "" {
		return "", "", false
	}
	return strings.ToLower(name), strings.TrimSpace(arg), true
}

// parseCount reads the N of "flood N" and "/forms N": def when empty, otherwise 1 to limit.
func parseCount(arg string, def, limit int) (int, error) {
	if arg == "" {
		return def, nil
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 || n > limit {
		return 0, fmt.Errorf("expected a count from 1 to %d, got %q", limit, arg)
	}
	return n, nil
}

func (t *turn) helpCommand(string) error {
	var sb strings.Builder
	sb.WriteString("## Demo agent commands\n\nAny other text gets a streamed reply with a plan, tool calls and a permission request.\n\n")
	for _, c := range commandTable() {
		usage := "/" + c.name
		if c.hint != "" {
			usage += " " + c.hint
		}
		fmt.Fprintf(&sb, "- `%s`: %s\n", usage, c.desc)
	}
	sb.WriteString("\nForms for `/form <name>`:\n\n")
	for _, f := range formCatalog() {
		fmt.Fprintf(&sb, "- `%s`: %s\n", f.name, f.summary)
	}
	sb.WriteString("\nModes: **ask** asks before editing, **auto** does not. The **pace** option turns off streaming pauses.\n")
	return t.say(sb.String())
}

// slowCommand streams a chunk every 100 ms for 30 s, whatever the pace.
func (t *turn) slowCommand(string) error {
	if err := t.sayNow("Working slowly for 30 seconds; cancel whenever you like.\n\n"); err != nil {
		return err
	}
	const ticks = 300
	for i := 1; i <= ticks; i++ {
		if err := sleep(t.ctx, 100*time.Millisecond); err != nil {
			return err
		}
		chunk := "."
		if i%10 == 0 {
			chunk = fmt.Sprintf(" %ds\n", i/10)
		}
		if err := t.sayNow(chunk); err != nil {
			return err
		}
	}
	return t.sayNow("\nDone, nobody cancelled me.\n")
}

// laterCommand waits the given seconds (5 by default, at most 600), then
// asks what /edit asks.
func (t *turn) laterCommand(arg string) error {
	n, err := parseCount(arg, 5, 600)
	if err != nil {
		return t.sayNow(err.Error() + "\n")
	}
	if err := t.sayNow(fmt.Sprintf("I will ask you something in %d s.\n", n)); err != nil {
		return err
	}
	if err := sleep(t.ctx, time.Duration(n)*time.Second); err != nil {
		return err
	}
	return t.editCommand("")
}

// floodWords are the words "flood N" cycles through.
var floodWords = []string{"lorem", "ipsum", "dolor", "sit", "amet", "elit", "sed", "do"}

// floodCommand is "flood N": N agent_message_chunk updates, one short word and a space each,
// as fast as the pipe takes them. The notifications are encoded once, with the SDK's types.
func (t *turn) floodCommand(arg string) error {
	n, err := parseCount(arg, 1000, 10_000_000)
	if err != nil {
		return t.sayNow(err.Error() + "\n")
	}
	encoded := make([]json.RawMessage, len(floodWords))
	for i, w := range floodWords {
		note := acp.SessionNotification{SessionId: t.s.id, Update: acp.UpdateAgentMessageText(w + " ")}
		if encoded[i], err = json.Marshal(note); err != nil {
			return err
		}
	}
	for i := range n {
		if err := t.a.conn.SendNotification(t.ctx, acp.ClientMethodSessionUpdate, encoded[i%len(encoded)]); err != nil {
			return err
		}
	}
	return nil
}

// exitCommand is "/exit [code]": it writes one line to stderr and ends the process mid-turn.
func (t *turn) exitCommand(arg string) error {
	code := 1
	if arg != "" {
		c, err := strconv.Atoi(arg)
		if err != nil || c < 0 || c > 255 {
			return t.sayNow(fmt.Sprintf("expected an exit code from 0 to 255, got %q\n", arg))
		}
		code = c
	}
	if err := t.sayNow(fmt.Sprintf("Exiting with code %d now.\n", code)); err != nil {
		return err
	}
	fmt.Fprintf(t.a.opts.Stderr, "elicit-demo: exiting with code %d as asked by /exit\n", code)
	t.a.opts.Exit(code)
	// Only a replaced Exit returns; the process would be gone, so the turn never ends by itself.
	<-t.ctx.Done()
	return t.ctx.Err()
}
