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
