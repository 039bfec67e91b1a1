package acpconn

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// FileTimeout bounds every file access (a file on a hung network mount
// must not hold the request forever).
const FileTimeout = 30 * time.Second

// WritePolicy says what becomes of the agent's fs/write_text_file requests
// that no permission settled (see decideWrite). Writes by the agent's own
// process, without fs/*, are outside any client's control.
type WritePolicy int

// The write policies.
const (
	// WritesAllowed (the zero value) lets writes inside the session
	// directory through, except to files that run code later: with no
	// one to ask, those are refused (elicit -p --approve).
	WritesAllowed WritePolicy = iota
	// WritesRefused refuses them, with a Notice (elicit -p without
	// --approve).
	WritesRefused
	// WritesAsked asks the user about each: Config.AskWrite decides when
	// set, else a permission question whose Write is set asks (the full
	// screen and the accessible session).
	WritesAsked
)

// WriteRequest is a write the agent asks for, as Config.AskWrite sees it.
type WriteRequest struct {
	Path    string // relative to the session directory, shown as sanitize.DiffLine shows it
	Content string // exactly what the agent would write
	Risk    string // why the file runs code later ("" when it does not): see CodeRisk
}

// FileAccess is what the agent's fs requests did, for the transcript: a
// read, a write (with the content before and after, for a diff), or a
// refusal. Path is relative to the session directory; Path and Reason are
// sanitized for display, Old and New as sanitize.Diff shows a diff.
type FileAccess struct {
	Op       string // "read", "write" or "refused"
	Attempt  string // for "refused": "read" or "write"
	Path     string
	Bytes    int  // bytes read or written
	Lines    int  // lines read
	Created  bool // the write created the file
	Missing  bool // the read found no such file: answered as an empty one
	Old, New string
	OldBytes int64 // the size before a write
	TooLarge bool  // Old or New is over MaxDiffBytes: not carried, too large to diff
	Reason   string
	// ToolCallID is the tool call whose permission refused the write, or
	// approved the write done (exact, as the agent sent it; "" when none
	// did): the write the agent reports in that tool call.
	ToolCallID string
	// Mismatch marks a write refused because its content differs from the
	// diff the user approved: Old is then the approved text and New the
	// text the agent sent instead, for a diff of the two.
	Mismatch bool
}

// relPath maps the agent's absolute path to one relative to the session
// directory (as resolved or as given), refusing what is outside. This is
// lexical only: the os.Root each access goes through does the rest.
func (c *Conn) relPath(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", refuse("the path %q is not absolute", sanitize.Summary(path, 80))
	}
	clean := filepath.Clean(path)
	for _, root := range []string{c.root, c.rootAlias} {
		if root == "" {
			continue
		}
		if rel, err := filepath.Rel(root, clean); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return rel, nil
		}
	}
	return "", refuse("the path %q is outside the session directory %s", sanitize.Summary(path, 80), c.root)
}

// fsDo runs one file access under FileTimeout (and the request's ctx).
func fsDo[T any](ctx context.Context, f func() (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, FileTimeout)
	defer cancel()
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := f()
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, fmt.Errorf("the file access did not finish: %w", context.Cause(ctx))
	}
}

// fsError answers a failed access: -32602 for a refusal, -32603 for an I/O
// error; the UI gets a FileAccess "refused" either way.
func (c *Conn) fsError(attempt, rel string, err error) *acp.RequestError {
	reason := sanitize.Line(err.Error())
	ev := FileAccess{Op: "refused", Attempt: attempt, Path: sanitize.DiffLine(rel), Reason: reason}
	var w *writeRefusal
	if errors.As(err, &w) {
		ev.ToolCallID, ev.Mismatch = w.toolCall, w.mismatch
		if w.mismatch && len(w.approved) <= MaxDiffBytes && len(w.sent) <= MaxDiffBytes {
			ev.Old, ev.New = sanitize.Diff(w.approved), sanitize.Diff(w.sent)
		}
		c.emit(ev)
		return invalidParams("content", err.Error())
	}
	c.emit(ev)
	var r errRefused
	if errors.As(err, &r) {
		return invalidParams("path", err.Error())
	}
	return acp.NewInternalError(map[string]any{"error": err.Error()})
}

// missing says whether a read failed only because the file (or a
// directory on its way) does not exist: not a refusal (outside the
// session, not a regular file), not another I/O error.
func missing(err error) bool {
	var r errRefused
	return errors.Is(err, fs.ErrNotExist) && !errors.As(err, &r)
}

func (c *Conn) readTextFile(ctx context.Context, p acp.ReadTextFileRequest) (acp.ReadTextFileResponse, *acp.RequestError) {
	if !c.knownSession(string(p.SessionId), "fs/read_text_file") {
		return acp.ReadTextFileResponse{}, invalidParams("sessionId", "unknown session")
	}
	rel, err := c.relPath(p.Path)
	if err != nil {
		return acp.ReadTextFileResponse{}, c.fsError("read", p.Path, err)
	}
	type got struct {
		text  string
		lines int
	}
	r, err := fsDo(ctx, func() (got, error) {
		text, lines, err := readLines(c.fsRoot, rel, p.Line, p.Limit)
		return got{text, lines}, err
	})
	if missing(err) {
		// A file inside the session that does not exist yet reads as empty,
		// as Zed answers: agents read a file before they create it, and
		// gemini-cli cannot tell an error for a missing file from any
		// other (it fails the write). The spec says nothing of such reads.
		c.emit(FileAccess{Op: "read", Path: sanitize.Line(rel), Missing: true})
		return acp.ReadTextFileResponse{Content: ""}, nil
	}
	if err != nil {
		return acp.ReadTextFileResponse{}, c.fsError("read", rel, err)
	}
	c.emit(FileAccess{Op: "read", Path: sanitize.Line(rel), Bytes: len(r.text), Lines: r.lines})
	return acp.ReadTextFileResponse{Content: r.text}, nil
}

func (c *Conn) writeTextFile(ctx context.Context, p acp.WriteTextFileRequest) *acp.RequestError {
	if !c.knownSession(string(p.SessionId), "fs/write_text_file") {
		return invalidParams("sessionId", "unknown session")
	}
	rel, err := c.relPath(p.Path)
	if err != nil {
		return c.fsError("write", p.Path, err)
	}
	risky, toolCall, err := c.decideWrite(ctx, string(p.SessionId), rel, p.Content)
	if err != nil {
		return c.fsError("write", rel, err)
	}
	// The file opened may not be the path asked for (a symlink inside the
	// session): one that runs code later needs the user's word too.
	check := func(real string) error {
		if risk := c.codeRisk(real); risk != "" && !risky {
			return refuse("%s leads to %s, which runs code later (%s): write it by its own name to be asked", sanitize.DiffLine(rel), sanitize.DiffLine(real), risk)
		}
		return nil
	}
	w, err := fsDo(ctx, func() (written, error) { return writeFile(c.fsRoot, c.root, rel, p.Content, check) })
	if err != nil {
		return c.fsError("write", rel, err)
	}
	ev := FileAccess{Op: "write", Path: sanitize.DiffLine(rel), Bytes: len(p.Content), Created: w.created, OldBytes: w.oldBytes, TooLarge: w.tooLarge, ToolCallID: toolCall}
	if !w.tooLarge {
		ev.Old, ev.New = sanitize.Diff(w.old), sanitize.Diff(p.Content)
	}
	c.emit(ev)
	return nil
}
