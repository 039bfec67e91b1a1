//go:build unix

package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 27, case 12: the audit log follows no symbolic link and is the
// user's own file, mode 0600; anything else is refused with the fix.
func TestOpenRefusesLinksAndOpenFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(target, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "audit.jsonl")
	os.Symlink(target, link)
	if l, err := Open(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a symlink: %v", err)
		l.Close()
	}
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	open := filepath.Join(dir, "open.jsonl")
	os.WriteFile(open, nil, 0o644)
	if l, err := Open(open); err == nil || !strings.Contains(err.Error(), "chmod 600 "+open) {
		t.Errorf("mode 0644: %v", err)
		l.Close()
	}
	fresh := filepath.Join(dir, "sub", "new.jsonl")
	l, err := Open(fresh)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o600 {
		t.Errorf("made with mode %v", fi.Mode().Perm())
	}
}
