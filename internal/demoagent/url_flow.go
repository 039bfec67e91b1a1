package demoagent

import (
	"context"
	"fmt"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"
)

// urlServer returns the agent's loopback server, starting it on first use.
func (a *agent) urlServer() (*urlServer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.urls == nil {
		s, err := startURLServer(a.completeElicitation)
		if err != nil {
			return nil, err
		}
		a.urls = s
	}
	return a.urls, nil
}

// completeElicitation sends elicitation/complete for id.
func (a *agent) completeElicitation(id string) error {
	a.mu.Lock()
	if a.approved == nil {
		a.approved = map[string]bool{}
	}
	a.approved[id] = true
	a.mu.Unlock()
	n := acp.UnstableCompleteElicitationNotification{ElicitationId: acp.UnstableElicitationId(id)}
	return a.conn.SendNotification(context.Background(), acp.ClientMethodElicitationComplete, n)
}

// askURL registers a flow on the server and sends the URL-mode elicitation for it. A flow the
// user does not accept is dropped from the server.
func (t *turn) askURL(srv *urlServer, message string, completes bool) (string, elicitResult, error) {
	id, page := srv.newFlow(message, completes)
	r, err := t.elicit(elicitParams{
		SessionId: t.s.id, Mode: "url", ElicitationId: acp.UnstableElicitationId(id), Url: page, Message: message,
	})
	if err != nil || r.action != actionAccept {
		srv.drop(id)
	}
	return id, r, err
}

// urlCommand is /url: one flow that completes when its page's Approve button is pressed, and a
// second one that never completes, both served on loopback.
func (t *turn) urlCommand(string) error {
	if !t.a.clientCaps().url {
		return t.say(noMode("url"))
	}
	srv, err := t.a.urlServer()
	if err != nil {
		return t.sayNow(fmt.Sprintf("I could not start the local page: %v\n", err))
	}
	if err := t.say("## URL flows\n\nI'm serving a small page on `127.0.0.1`. Open it, press **Approve**, " +
		"and I'll tell your client the flow is complete.\n\n"); err != nil {
		return err
	}
	flows := []struct {
		heading, message string
		completes        bool
	}{
		{"1. A flow that completes", "Approve the demo connection on a local page.", true},
		{"2. A flow that never completes", "This page's flow never completes: try retry, done and cancel.", false},
	}
	for _, f := range flows {
		id, r, err := t.askURL(srv, f.message, f.completes)
		if t.ctx.Err() != nil {
			return t.ctx.Err()
		}
		report := receivedReport(f.heading, r, err)
		if err == nil && r.action == actionAccept {
			report += urlPendingNote(id, f.completes)
		}
		if err := t.say(report); err != nil {
			return err
		}
	}
	return nil
}

// urlPendingNote says what happens next to an accepted flow.
func urlPendingNote(id string, completes bool) string {
	if completes {
		return fmt.Sprintf("Accepting means only that you agreed to open the page. Flow `%s` stays pending "+
			"until you press Approve there.\n\n", id)
	}
	return fmt.Sprintf("Flow `%s` will never report back: mark it done or cancel it in your client.\n\n", id)
}

// allCommand is /all: a form, a URL request and a permission request sent at once, so the
// client has to queue them; the reply reports each answer.
func (t *turn) allCommand(string) error {
	if err := t.say("## All at once\n\nA form, a URL and a permission request, sent together.\n\n"); err != nil {
		return err
	}
	caps := t.a.clientCaps()
	reports := make([]string, 3)
	var wg sync.WaitGroup
	if caps.form {
		f, _ := formByName("defaults")
		wg.Go(func() {
			r, err := t.elicit(t.formParams(f.message, f.schema, ""))
			reports[0] = receivedReport("Form", r, err)
		})
	} else {
		reports[0] = "### Form\n\n" + noMode("form")
	}
	if caps.url {
		wg.Go(func() { reports[1] = t.allURL() })
	} else {
		reports[1] = "### URL\n\n" + noMode("url")
	}
	wg.Go(func() { reports[2] = t.allPermission() })
	wg.Wait()
	if t.ctx.Err() != nil {
		return t.ctx.Err()
	}
	return t.say(strings.Join(reports, ""))
}

// allURL is the URL part of /all.
func (t *turn) allURL() string {
	srv, err := t.a.urlServer()
	if err != nil {
		return fmt.Sprintf("### URL\n\nI could not start the local page: %v\n\n", err)
	}
	id, r, err := t.askURL(srv, "Approve the demo connection (sent with /all).", true)
	report := receivedReport("URL", r, err)
	if err == nil && r.action == actionAccept {
		report += urlPendingNote(id, true)
	}
	return report
}

// allPermission is the permission part of /all: a tool call that runs only if allowed.
func (t *turn) allPermission() string {
	id := newToolCallID()
	title := "Run the test suite"
	if err := t.update(acp.StartToolCall(id, title,
		acp.WithStartKind(acp.ToolKindExecute), acp.WithStartStatus(acp.ToolCallStatusPending),
		acp.WithStartContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock("go test ./..."))}),
	)); err != nil {
		return "### Permission\n\nCould not start the tool call: " + describeError(err) + "\n\n"
	}
	kind, err := t.askPermission(acp.ToolCallUpdate{
		ToolCallId: id, Title: acp.Ptr(title), Kind: acp.Ptr(acp.ToolKindExecute),
		Status: acp.Ptr(acp.ToolCallStatusPending),
	})
	status, text, answer := acp.ToolCallStatusFailed, "Not run", ""
	switch {
	case err != nil:
		answer = "The request ended without a choice: `" + describeError(err) + "`"
	case kind == acp.PermissionOptionKindAllowOnce || kind == acp.PermissionOptionKindAllowAlways:
		status, text, answer = acp.ToolCallStatusCompleted, "ok (pretend: nothing ran)", fmt.Sprintf("You picked **%s**.", kind)
	default:
		answer = fmt.Sprintf("You picked **%s**.", kind)
	}
	if t.ctx.Err() == nil {
		_ = t.setToolStatus(id, status, text)
	}
	return "### Permission\n\n" + answer + "\n\n"
}
