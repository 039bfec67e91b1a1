//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/testkit"
)

func TestCreateIsExclusive(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	os.WriteFile(target, []byte("keep\n"), 0o644)
	os.Symlink(target, filepath.Join(dir, "link.md"))
	os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling.md"))
	for _, name := range []string{"bashrc", "link.md", "dangling.md"} {
		if f, err := Create(filepath.Join(dir, name), 0o600); !errors.Is(err, fs.ErrExist) {
			t.Errorf("%s: %v", name, err)
			if f != nil {
				f.Close()
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere")); err == nil {
		t.Error("created through a dangling link")
	}
	f, err := Create(filepath.Join(dir, "new.md"), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Errorf("the target was touched: %q", b)
	}
}

func TestAppendAndReplaceRefuseLinksAndFIFOs(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep\n"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(target, link)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, open := range []func(string) (*os.File, error){
		func(p string) (*os.File, error) { return Append(p, 0o600) }, Replace,
		func(p string) (*os.File, error) { return Overwrite(p, 0o600) },
	} {
		_, err := open(link)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("link: %v", err)
		}
		if _, err := open(fifo); !errors.As(err, &e) || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("fifo: %v", err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Errorf("the target was touched: %q", b)
	}
}

func TestPrivateAndTrusted(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "audit.jsonl")
	f, err := Append(p, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := Private(f, p); err != nil {
		t.Errorf("a new file: %v", err)
	}
	os.Chmod(p, 0o644)
	if err := Private(f, p); err == nil || !strings.Contains(err.Error(), "chmod 600 "+p) {
		t.Errorf("0644: %v", err)
	}
	os.Chmod(p, 0o666)
	fi, _ := os.Stat(p)
	if err := Trusted(fi, p, Commands); err == nil || !strings.Contains(err.Error(), "chmod go-w "+p) {
		t.Errorf("0666: %v", err)
	}
	os.Chmod(p, 0o644)
	fi, _ = os.Stat(p)
	if err := Trusted(fi, p, Commands); err != nil {
		t.Errorf("0644: %v", err)
	}
	// A token is a secret too: a token file others can read is refused.
	if err := Trusted(fi, p, Token); err == nil || !strings.Contains(err.Error(), "can be read by others (mode 0644), who could learn the token") {
		t.Errorf("a token file of mode 0644: %v", err)
	}
	os.Chmod(p, 0o600)
	fi, _ = os.Stat(p)
	if err := Trusted(fi, p, Token); err != nil {
		t.Errorf("a token file of mode 0600: %v", err)
	}
}

// A lock held forever elsewhere makes Lock fail after its timeout, never
// hang.
func TestLockIsBounded(t *testing.T) {
	p := filepath.Join(t.TempDir(), "lock")
	a, _ := os.Create(p)
	defer a.Close()
	b, _ := os.Open(p)
	defer b.Close()
	unlock, err := Lock(a, testkit.Hang)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(b, 50*time.Millisecond); err == nil || !strings.Contains(err.Error(), "locked by another process") {
		t.Fatalf("second lock: %v", err)
	}
	unlock()
	if u, err := Lock(b, testkit.Hang); err != nil {
		t.Fatal(err)
	} else {
		u()
	}
}

// A scratch file is the user's alone, readable and writable, and on Unix
// has no name from the start: nothing is left in the directory.
func TestScratchIsPrivateAndNameless(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	f, remove, err := Scratch(dir, "scratch-*")
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	defer f.Close()
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the directory: %v, %v", fi, err)
	}
	if fi, err := f.Stat(); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file: %v, %v", fi, err)
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("names left in the directory: %v", names)
	}
	if _, err := f.WriteString("kept"); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4)
	if _, err := f.ReadAt(b, 0); err != nil || string(b) != "kept" {
		t.Errorf("read back %q, %v", b, err)
	}
}
