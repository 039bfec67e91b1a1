package acpconn

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question"
)

// elicit asks itself about an fs/write_text_file of the agent that no
// permission covered, or that writes a file that runs code later: a
// permission question whose Write is set (Path relative to the session
// directory as sanitize.DiffLine shows it, Risk, Why: no permission
// covered the write, or the one that did showed no diff of it). Its
// Tool.Diffs holds the write as a diff (Tool.Content says so when it is
// too large to diff); the options are WriteAllow and WriteRefuse.

// The option ids of a write question.
const (
	WriteAllow  = "allow-write"
	WriteRefuse = "refuse-write"
)

// writeRefusal is a write refused by the approvals or the user: the
// FileAccess event says which tool call decided it, and for a mismatch
// shows the approved text against the one sent.
type writeRefusal struct {
	reason   string // for the user and the agent
	toolCall string // exact; "" when no permission decided it
	mismatch bool
	approved string // the text the approval allows (mismatch only)
	sent     string // what the agent sent (mismatch only)
}

func (w *writeRefusal) Error() string { return w.reason }

// decideWrite is the one place an fs/write_text_file is decided, in every
// front end: by the permission that covers its file (see approvals.go),
// else by the write policy (Config.Writes), asking the user under
// WritesAsked. A file that runs code later (CodeRisk) is always asked
// about. It returns whether such a file may be written, which writeFile
// checks again on the file it opened (a symlink may lead there), and the
// tool call whose permission approved this very write ("" for none).
func (c *Conn) decideWrite(ctx context.Context, sid, rel, content string) (risky bool, toolCall string, err error) {
	// What the agent sent before the write is taken into account first:
	// its permission requests, and the updates that end a tool call.
	c.reader.waitNotifications(orderWait)
	c.approvals.settle(orderWait + time.Second)
	risk := c.codeRisk(rel)
	why := "no permission covered it"
	for {
		ap, state := c.approvals.lookup(sid, rel)
		if ap == nil {
			break
		}
		if state == approvalOpen {
			if !c.approvals.waitAnswer(ctx, ap) {
				return false, "", &writeRefusal{reason: "the write was withdrawn while its permission was still open", toolCall: ap.toolCall}
			}
			continue // the answer, or a newer permission for the file
		}
		if state == approvalRefused {
			return false, "", &writeRefusal{reason: fmt.Sprintf("the permission for %s was not granted (%s)", ap.name(), ap.choice), toolCall: ap.toolCall}
		}
		if len(ap.edits[rel]) == 0 {
			why = fmt.Sprintf("the permission for %s showed no diff of it", ap.name())
			break
		}
		ok, want := ap.matches(rel, content, func() (string, bool) { return c.currentText(ctx, rel) })
		if !ok {
			return false, "", &writeRefusal{reason: fmt.Sprintf("the content differs from the diff approved for %s: ask for permission again with this content", ap.name()),
				toolCall: ap.toolCall, mismatch: true, approved: want, sent: content}
		}
		if risk == "" {
			return false, ap.toolCall, nil // the write the user approved in this tool call's permission
		}
		why = "approved in a permission, but " + sanitize.DiffLine(rel) + " runs code later"
		break
	}
	return risk != "", "", c.askWrite(ctx, rel, content, risk, why)
}

// name is how messages name the approval's tool call.
func (ap *approval) name() string {
	if ap.title != "" {
		return fmt.Sprintf("%q", ap.title)
	}
	return "tool call " + sanitize.ID(ap.toolCall)
}

// askWrite decides a write no permission settled, by the write policy.
func (c *Conn) askWrite(ctx context.Context, rel, content, risk, why string) error {
	switch c.cfg.Writes {
	case WritesAsked:
		if c.cfg.AskWrite != nil {
			if c.cfg.AskWrite(ctx, WriteRequest{Path: sanitize.DiffLine(rel), Content: content, Risk: risk}) {
				return nil
			}
			return &writeRefusal{reason: "the user refused this write"}
		}
		return c.askUser(ctx, rel, content, risk, why)
	case WritesRefused:
		reason := "the user did not allow file writes"
		if c.cfg.WritesRefusedWhy != "" {
			reason += " (" + c.cfg.WritesRefusedWhy + ")"
		}
		if risk != "" {
			reason = riskRefusal(rel, risk)
		}
		c.emit(Notice{Text: fmt.Sprintf("refused the agent's write to %s: %s", sanitize.DiffLine(rel), reason), Error: true})
		return &writeRefusal{reason: reason}
	}
	if risk != "" {
		reason := riskRefusal(rel, risk)
		c.emit(Notice{Text: fmt.Sprintf("refused the agent's write to %s: %s", sanitize.DiffLine(rel), reason), Error: true})
		return &writeRefusal{reason: reason}
	}
	return nil
}

// riskRefusal says why a write that runs code later was refused without a
// person to ask, and how to allow it.
func riskRefusal(rel, risk string) string {
	return fmt.Sprintf("%s runs code later (%s); elicit asks before every such write, and there is no one to ask here: allow it with --allow-write %s",
		sanitize.DiffLine(rel), risk, sanitize.DiffLine(filepath.ToSlash(rel)))
}

// askUser asks the person at the terminal with a write question and waits
// for the answer; the write waits with it.
func (c *Conn) askUser(ctx context.Context, rel, content, risk, why string) error {
	refused := &writeRefusal{reason: "the user refused this write"}
	id, ch, ok := c.register()
	if !ok {
		refused.reason = "too many questions are waiting for the user"
		return refused
	}
	shown := sanitize.DiffLine(rel)
	tc := ToolCall{Title: "write " + shown, Kind: "edit", Status: "pending"}
	old, exists := c.currentText(ctx, rel)
	if len(content) > MaxDiffBytes || exists && len(old) > MaxDiffBytes || !exists && c.fileSize(rel) > MaxDiffBytes {
		tc.Content = []string{fmt.Sprintf("%d bytes: too large to show as a diff", len(content))}
	} else {
		tc.Diffs = []Diff{{Path: shown, Old: sanitize.Diff(old), New: sanitize.Diff(content)}}
	}
	q := &question.Question{ID: id, Kind: question.Permission, From: question.From{Tool: tc.Title}, Tool: askedTool(tc),
		Write: &question.Write{Path: shown, Risk: risk, Why: why}, Options: []question.Option{
			{ID: WriteAllow, Name: "Allow this write", Kind: "allow_once"},
			{ID: WriteRefuse, Name: "Refuse it", Kind: "reject_once"},
		}}
	if !c.emit(question.Asked{Q: q}) {
		c.withdraw(id)
		return refused
	}
	out, ok := c.wait(ctx, id, ch)
	if !ok {
		refused.reason = "the write was withdrawn while its question was open"
		return refused
	}
	if out.Action != question.Accept || out.Option != WriteAllow {
		return refused
	}
	return nil
}

// currentText is the file's text now (at most MaxDiffBytes of it are
// worth a diff); ok is false when it does not exist, is too large or
// cannot be read.
func (c *Conn) currentText(ctx context.Context, rel string) (string, bool) {
	s, err := fsDo(ctx, func() (string, error) {
		f, fi, err := openRegular(c.fsRoot, rel, os.O_RDONLY)
		if err != nil {
			return "", err
		}
		defer f.Close()
		if fi.Size() > MaxDiffBytes {
			return "", errTooLarge
		}
		b, err := io.ReadAll(io.LimitReader(f, MaxDiffBytes+1))
		if len(b) > MaxDiffBytes {
			return "", errTooLarge
		}
		return string(b), err
	})
	return s, err == nil
}

// fileSize is the size of rel, 0 when it cannot be told.
func (c *Conn) fileSize(rel string) int64 {
	if fi, err := c.fsRoot.Stat(rel); err == nil {
		return fi.Size()
	}
	return 0
}

var errTooLarge = refuse("too large")
