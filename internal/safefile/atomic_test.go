//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// victim is a file of the user's that a planted link points at.
func victim(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bashrc")
	if err := os.WriteFile(p, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func untouched(t *testing.T, path string) {
	t.Helper()
	if b, err := os.ReadFile(path); err != nil || string(b) != "keep\n" {
		t.Errorf("%s was written through the link: %q %v", path, b, err)
	}
}

// Issue 31: WriteAtomic replaces a link planted at the path (the link
// goes, a private regular file takes its place); its target is untouched.
func TestWriteAtomicReplacesALinkNeverFollows(t *testing.T) {
	target := victim(t)
	path := filepath.Join(t.TempDir(), "sites.json")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(path, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	untouched(t, target)
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %v %v", path, fi.Mode(), err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new\n" {
		t.Errorf("content %q", b)
	}
	if names, _ := os.ReadDir(filepath.Dir(path)); len(names) != 1 {
		t.Errorf("left behind: %v", names)
	}
}

// Overwrite makes a missing file private and empties an existing one.
func TestOverwriteEmptiesOrMakesPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	for _, content := range []string{"a long first profile", "short"} {
		f, err := Overwrite(path, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(content)
		f.Close()
		if b, _ := os.ReadFile(path); string(b) != content {
			t.Errorf("content %q, want %q", b, content)
		}
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}

// Issue 31: New never writes through a link: not one planted as its
// directory; and its file is new, private, and stays.
func TestNewRefusesALinkedDirectory(t *testing.T) {
	elsewhere := t.TempDir()
	dir := filepath.Join(t.TempDir(), "elicit")
	if err := os.Symlink(elsewhere, dir); err != nil {
		t.Fatal(err)
	}
	if f, err := New(dir, "crash-*.log"); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a linked directory: %v", err)
		if f != nil {
			f.Close()
		}
	}
	if names, _ := os.ReadDir(elsewhere); len(names) != 0 {
		t.Errorf("written through the link: %v", names)
	}
	real := filepath.Join(t.TempDir(), "cache", "elicit")
	f, err := New(real, "crash-*.log")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if fi, err := os.Stat(f.Name()); err != nil || fi.Mode().Perm() != 0o600 || filepath.Dir(f.Name()) != real {
		t.Errorf("%s: %v %v", f.Name(), fi, err)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o700 {
		t.Errorf("the directory's mode %v", fi.Mode())
	}
}
