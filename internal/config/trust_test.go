//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
)

// Issue 27, case 11: a config file, or a hook command file it names, that
// others can write is refused with the fix, as ssh refuses its config
// (`elicit config check` reads it with Load too: TestHostileConfigWritableByOthers).
func TestConfigWritableByOthersIsRefused(t *testing.T) {
	dir := t.TempDir()
	hook := filepath.Join(dir, "hook.sh")
	must(t, os.WriteFile(hook, []byte("#!/bin/sh\n"), 0o755))
	path := filepath.Join(dir, "config.toml")
	must(t, os.WriteFile(path, []byte("[[hooks]]\nevent = \"Elicitation\"\ncommand = [\"/bin/sh\", \""+hook+"\"]\n"), 0o644))
	if _, err := Load(path); err != nil {
		t.Fatalf("a file of the user's, mode 0644: %v", err)
	}
	for _, tc := range []struct {
		file string
		mode os.FileMode
		fix  string
	}{{path, 0o666, "chmod go-w " + path}, {path, 0o664, "chmod go-w " + path}, {hook, 0o777, "chmod go-w " + hook}} {
		must(t, os.Chmod(tc.file, tc.mode))
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), tc.fix) {
			t.Errorf("%s mode %o: %v", filepath.Base(tc.file), tc.mode, err)
		}
		must(t, os.Chmod(tc.file, 0o644))
	}
}

// A config file of another user (neither the user nor root) is refused.
func TestConfigOfAnotherUserIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	must(t, os.WriteFile(path, nil, 0o644))
	if err := os.Chown(path, 4242, 4242); err != nil {
		t.Skip("cannot give a file away here:", err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "belongs to another user (uid 4242)") {
		t.Fatalf("%v", err)
	}
}

// A FIFO in the config file's place is refused at once.
func TestConfigFIFORefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	must(t, syscall.Mkfifo(path, 0o600))
	done := make(chan error, 1)
	go func() { _, err := Load(path); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("%v", err)
		}
	case <-time.After(testkit.Hang):
		t.Fatal("Load hangs on a FIFO")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
