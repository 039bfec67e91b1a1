package acpconn

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	acp "github.com/coder/acp-go-sdk"
)

// confine resolves path inside root, following symlinks as far as the path
// exists, and refuses anything that lands outside the session's tree.
func confine(root, path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("path %q is not absolute", path)
	}
	clean := filepath.Clean(path)
	// Resolve the longest existing prefix, so a symlink cannot lead out.
	resolved, rest := clean, ""
	for {
		r, err := filepath.EvalSymlinks(resolved)
		if err == nil {
			resolved = filepath.Join(r, rest)
			break
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(resolved)
		if parent == resolved {
			break
		}
		rest = filepath.Join(filepath.Base(resolved), rest)
		resolved = parent
	}
	rel, err := filepath.Rel(root, resolved)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("path %q is outside the session directory %s", path, root)
	}
	return resolved, nil
}

func (c *Conn) readTextFile(p acp.ReadTextFileRequest) (acp.ReadTextFileResponse, *acp.RequestError) {
	path, err := confine(c.root, p.Path)
	if err != nil {
		return acp.ReadTextFileResponse{}, invalidParams("path", err.Error())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return acp.ReadTextFileResponse{}, acp.NewInternalError(map[string]any{"error": err.Error()})
	}
	text := string(data)
	if p.Line != nil || p.Limit != nil {
		lines := strings.SplitAfter(text, "\n")
		start := 0
		if p.Line != nil && *p.Line > 1 {
			start = min(*p.Line-1, len(lines))
		}
		end := len(lines)
		if p.Limit != nil && *p.Limit >= 0 {
			end = min(start+*p.Limit, len(lines))
		}
		text = strings.Join(lines[start:end], "")
	}
	return acp.ReadTextFileResponse{Content: text}, nil
}

func (c *Conn) writeTextFile(p acp.WriteTextFileRequest) *acp.RequestError {
	path, err := confine(c.root, p.Path)
	if err != nil {
		return invalidParams("path", err.Error())
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return acp.NewInternalError(map[string]any{"error": err.Error()})
	}
	if err := os.WriteFile(path, []byte(p.Content), 0o644); err != nil {
		return acp.NewInternalError(map[string]any{"error": err.Error()})
	}
	return nil
}
