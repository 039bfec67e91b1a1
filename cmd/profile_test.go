//go:build unix

package cmd

import (
	"os"
	"path/filepath"
	"testing"
)

// Issue 31: a profile (ELICIT_CPUPROFILE, ELICIT_TRACE, ELICIT_MEMPROFILE)
// is never written through a symbolic link planted where it goes; one in
// a plain file is written, private.
func TestProfilesNeverFollowALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(target, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"ELICIT_CPUPROFILE", "ELICIT_TRACE", "ELICIT_MEMPROFILE"} {
		link := filepath.Join(dir, v)
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		t.Setenv(v, link)
	}
	startProfiles()()
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Errorf("a profile was written through a link: %q", b)
	}
	mem := filepath.Join(dir, "mem.prof")
	t.Setenv("ELICIT_MEMPROFILE", mem)
	startProfiles()()
	if fi, err := os.Lstat(mem); err != nil || fi.Size() == 0 || fi.Mode().Perm() != 0o600 {
		t.Errorf("the profile in a plain file: %v %v", fi, err)
	}
}
