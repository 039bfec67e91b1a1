package demoagent

import (
	"crypto/rand"
	"fmt"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// riskyURL is the look-alike URL /risky asks to open: the text before @ is
// only a user name, the browser would go to evil.example (a reserved name
// that resolves nowhere). Nothing ever completes its flow.
const riskyURL = "https://google.com@evil.example/login"

// riskyCommand is /risky: a URL that looks like Google's and a permission to
// run `rm -rf ~`, sent together, so that a client's type-ahead protection is
// tested against the questions a mistaken key would do most harm on. Nothing
// is fetched or run whatever the answers; the reply reports them.
func (t *turn) riskyCommand(string) error {
	if err := t.say("## Risky questions\n\nA look-alike URL and a permission to delete your home directory, sent together. " +
		"Nothing is fetched or run, whatever you answer.\n\n"); err != nil {
		return err
	}
	reports := make([]string, 2)
	var wg sync.WaitGroup
	if t.a.clientCaps().url {
		wg.Go(func() { reports[0] = t.riskyURL() })
	} else {
		reports[0] = "### URL\n\n" + noMode("url")
	}
	wg.Go(func() {
		// The URL first, the permission while it waits: clients see them in
		// this order (a test answers them in it).
		time.Sleep(150 * time.Millisecond)
		reports[1] = t.riskyPermission()
	})
	wg.Wait()
	if t.ctx.Err() != nil {
		return t.ctx.Err()
	}
	return t.say(strings.Join(reports, ""))
}

// riskyURL is the URL part of /risky.
func (t *turn) riskyURL() string {
	id := "risky-" + strings.ToLower(rand.Text())
	r, err := t.elicit(elicitParams{
		SessionId: t.s.id, Mode: "url", ElicitationId: acp.UnstableElicitationId(id), Url: riskyURL,
		Message: "Sign in to Google to continue.",
	})
	report := receivedReport("URL", r, err)
	if err == nil && r.action == actionAccept {
		report += fmt.Sprintf("Flow `%s` will never report back: the page is not mine.\n\n", id)
	}
	return report
}

// riskyPermission is the permission part of /risky.
func (t *turn) riskyPermission() string {
	id := newToolCallID()
	title := "Delete your home directory"
	if err := t.update(acp.StartToolCall(id, title,
		acp.WithStartKind(acp.ToolKindDelete), acp.WithStartStatus(acp.ToolCallStatusPending),
		acp.WithStartContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock("rm -rf ~"))}),
	)); err != nil {
		return "### Permission\n\nCould not start the tool call: " + describeError(err) + "\n\n"
	}
	kind, err := t.askPermission(acp.ToolCallUpdate{
		ToolCallId: id, Title: acp.Ptr(title), Kind: acp.Ptr(acp.ToolKindDelete),
		Status: acp.Ptr(acp.ToolCallStatusPending),
	})
	answer := ""
	switch {
	case err != nil:
		answer = "The request ended without a choice: `" + describeError(err) + "`"
	default:
		answer = fmt.Sprintf("You picked **%s**.", kind)
	}
	if t.ctx.Err() == nil {
		_ = t.setToolStatus(id, acp.ToolCallStatusFailed, "Not run (the demo never runs it)")
	}
	return "### Permission\n\n" + answer + "\n\n"
}
