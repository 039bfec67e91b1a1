//go:build unix

package acpconn

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file inside the session that does not exist yet reads as empty (as Zed
// answers, and as gemini-cli needs to create a file), and the UI hears of a
// new file, not a refusal; a path outside stays refused even when missing,
// and other errors stay errors.
func TestFSMissingFileReadsEmpty(t *testing.T) {
	session, outside := sandbox(t)
	must(t, os.WriteFile(filepath.Join(outside, "there.txt"), []byte("secret"), 0o644))
	must(t, os.WriteFile(filepath.Join(session, "file.txt"), []byte("x"), 0o644))
	must(t, os.Mkdir(filepath.Join(session, "dir"), 0o755))
	must(t, os.Symlink("../outside/none.txt", filepath.Join(session, "dangling")))
	got, evs := runFS(t, session, Config{},
		read("new.txt"), read("sub/deeper/new.txt", "line", 3, "limit", 2),
		read("../outside/there.txt"), read("../outside/missing.txt"), read("dangling"),
		read("file.txt/child"), read("dir"))
	want := []string{"ok ", "ok ", "error -32602", "error -32602", "error -32602", "error -32603", "error -32602"}
	if len(got) != len(want) {
		t.Fatalf("outcomes %q", got)
	}
	for i, w := range want {
		if got[i] != w && !strings.HasPrefix(got[i], w+" ") {
			t.Errorf("request %d: %q, want %q", i, got[i], w)
		}
	}
	var missing []string
	refusals := 0
	for _, ev := range evs {
		if a, ok := ev.(FileAccess); ok {
			switch {
			case a.Op == "read" && a.Missing:
				missing = append(missing, a.Path)
			case a.Op == "refused":
				refusals++
			}
		}
	}
	if strings.Join(missing, ",") != "new.txt,sub/deeper/new.txt" || refusals != 5 {
		t.Errorf("missing reads %q, %d refusals", missing, refusals)
	}
	if _, err := os.Stat(filepath.Join(session, "sub")); err == nil {
		t.Error("a read created a directory")
	}
}
