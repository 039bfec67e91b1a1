package demoagent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"
)

// chunkDelay is the pause between streamed chunks at the normal pace.
const chunkDelay = 10 * time.Millisecond

// chunkSize is the most bytes one streamed message chunk carries (chunks break after a space or
// newline when one is near).
const chunkSize = 24

// toolCallSeq numbers tool calls so their ids are unique across sessions and turns.
var toolCallSeq atomic.Uint64

// turn is one prompt turn: every update it sends carries its context, so nothing is sent once
// the turn is cancelled.
type turn struct {
	ctx context.Context
	a   *agent
	s   *session
}

// run answers one prompt: a command when it starts with "/" (or is "flood N"), otherwise the
// scripted plain reply.
func (t *turn) run(text string) error {
	name, arg, ok := parseCommand(text)
	if !ok {
		return t.plain(text)
	}
	for _, c := range commandTable() {
		if c.name == name {
			return c.run(t, arg)
		}
	}
	return t.sayNow(fmt.Sprintf("Unknown command `/%s`. Type `/help` for the list.\n", name))
}

// update sends one session/update for the turn's session.
func (t *turn) update(u acp.SessionUpdate) error {
	n := acp.SessionNotification{SessionId: t.s.id, Update: u}
	return t.a.conn.SendNotification(t.ctx, acp.ClientMethodSessionUpdate, n)
}

// say streams markdown in small chunks, pausing between them at the session's pace.
func (t *turn) say(text string) error {
	for _, c := range chunks(text, chunkSize) {
		if err := t.update(acp.UpdateAgentMessageText(c)); err != nil {
			return err
		}
		if err := t.pause(chunkDelay); err != nil {
			return err
		}
	}
	return nil
}

// sayNow sends text as one message chunk.
func (t *turn) sayNow(text string) error {
	return t.update(acp.UpdateAgentMessageText(text))
}

// think streams a thought in small chunks.
func (t *turn) think(text string) error {
	for _, c := range chunks(text, chunkSize) {
		if err := t.update(acp.UpdateAgentThoughtText(c)); err != nil {
			return err
		}
		if err := t.pause(chunkDelay); err != nil {
			return err
		}
	}
	return nil
}

// pause waits d at the normal pace (not at all at the instant pace) or until the turn ends.
func (t *turn) pause(d time.Duration) error {
	if _, pace, _ := t.s.settings(); pace == paceInstant {
		return t.ctx.Err()
	}
	return sleep(t.ctx, d)
}

// sleep waits d or until ctx ends, whichever comes first.
func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// newToolCallID returns a tool call id not used before by this agent process.
func newToolCallID() acp.ToolCallId {
	return acp.ToolCallId(fmt.Sprintf("call_%d", toolCallSeq.Add(1)))
}

// setToolStatus moves a tool call to status, replacing its content when text is not empty.
func (t *turn) setToolStatus(id acp.ToolCallId, status acp.ToolCallStatus, text string) error {
	opts := []acp.ToolCallUpdateOpt{acp.WithUpdateStatus(status)}
	if text != "" {
		opts = append(opts, acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock(text))}))
	}
	return t.update(acp.UpdateToolCall(id, opts...))
}

// Permission option ids offered by askPermission.
const (
	optAllowOnce    acp.PermissionOptionId = "allow-once"
	optAllowAlways  acp.PermissionOptionId = "allow-always"
	optRejectOnce   acp.PermissionOptionId = "reject-once"
	optRejectAlways acp.PermissionOptionId = "reject-always"
)

// permissionOptions are the four standard choices.
func permissionOptions() []acp.PermissionOption {
	return []acp.PermissionOption{
		{OptionId: optAllowOnce, Name: "Allow once", Kind: acp.PermissionOptionKindAllowOnce},
		{OptionId: optAllowAlways, Name: "Allow always", Kind: acp.PermissionOptionKindAllowAlways},
		{OptionId: optRejectOnce, Name: "Reject once", Kind: acp.PermissionOptionKindRejectOnce},
		{OptionId: optRejectAlways, Name: "Reject always", Kind: acp.PermissionOptionKindRejectAlways},
	}
}

// errPermissionCancelled reports a permission request the client answered with "cancelled".
var errPermissionCancelled = errors.New("the permission request was cancelled")

// askPermission sends session/request_permission for a tool call and returns the kind of the
// option the user picked, or errPermissionCancelled.
func (t *turn) askPermission(call acp.ToolCallUpdate) (acp.PermissionOptionKind, error) {
	req := acp.RequestPermissionRequest{SessionId: t.s.id, ToolCall: call, Options: permissionOptions()}
	resp, err := acp.SendRequest[acp.RequestPermissionResponse](t.a.conn, t.ctx, acp.ClientMethodSessionRequestPermission, req)
	if err != nil {
		return "", err
	}
	switch o := resp.Outcome; {
	case o.Cancelled != nil:
		return "", errPermissionCancelled
	case o.Selected != nil:
		for _, opt := range permissionOptions() {
			if opt.OptionId == o.Selected.OptionId {
				return opt.Kind, nil
			}
		}
		return "", fmt.Errorf("the client picked %q, which was not offered", o.Selected.OptionId)
	default:
		return "", errors.New("the client answered the permission request without an outcome")
	}
}

// chunks splits s into pieces of at most size bytes, breaking after a space or newline when
// there is one in the piece and never inside a UTF-8 sequence. Joined, the pieces are s.
// Hand-written: it only imitates how a model streams tokens, which no library does.
func chunks(s string, size int) []string {
	var out []string
	for len(s) > size {
		cut := strings.LastIndexAny(s[:size], " \n") + 1
		if cut == 0 {
			cut = size
			for cut > 1 && !utf8.RuneStart(s[cut]) {
				cut--
			}
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}
