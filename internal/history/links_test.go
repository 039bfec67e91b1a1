//go:build unix

package history

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 31: a symbolic link planted where a history file goes (by anything
// that can write the state directory, an agent's command included) is
// never written through: a state file's link is replaced by the file, the
// lock's is refused, and what they point at is untouched.
func TestLinkInPlaceOfAHistoryFileNotFollowed(t *testing.T) {
	for _, name := range []string{sitesFile, answersFile, lockFile} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			// The target holds what a history file may, so that reading
			// through the link is no reason to stop before the write.
			target := filepath.Join(t.TempDir(), "bashrc")
			const keep = `{"version":1}` + "\n"
			must(t, os.WriteFile(target, []byte(keep), 0o644))
			must(t, os.Symlink(target, filepath.Join(dir, name)))
			s, err := Open(dir)
			if err == nil && name == answersFile {
				err = s.RememberAnswers("agent", "form", map[string]json.RawMessage{"city": json.RawMessage(`"Paris"`)}, func(string) bool { return false })
			} else if err == nil {
				err = s.RecordSite("example.com", time.Now())
			}
			if b, _ := os.ReadFile(target); string(b) != keep {
				t.Errorf("written through the link: %q", b)
			}
			if name == lockFile {
				if err == nil || !strings.Contains(err.Error(), "symbolic link") {
					t.Errorf("a link as the lock: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Lstat(filepath.Join(dir, name)); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
				t.Errorf("%s is not a private regular file now: %v %v", name, fi.Mode(), err)
			}
		})
	}
	// A dangling link as the lock does not make its target either.
	dir := t.TempDir()
	nowhere := filepath.Join(t.TempDir(), "nowhere")
	must(t, os.Symlink(nowhere, filepath.Join(dir, lockFile)))
	s, err := Open(dir)
	if err == nil {
		err = s.RecordSite("example.com", time.Now())
	}
	if _, serr := os.Lstat(nowhere); err == nil || serr == nil {
		t.Errorf("a dangling link as the lock: %v; its target made: %v", err, serr == nil)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
