//go:build unix

package demoagent

import (
	"os"
	"path/filepath"
	"testing"
)

// Issue 31: the demo agent's log (ELICIT_DEMO_LOG) is never written
// through a symbolic link planted where it goes.
func TestLogNeverFollowsALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(target, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "demo.log")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	t.Setenv(LogEnv, link)
	log, closeLog := newLogger()
	log.Info("hello")
	closeLog()
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Errorf("the log was written through the link: %q", b)
	}
}
