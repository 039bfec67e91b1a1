package fullscreen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/ui/internal/uitest"
)

// A long session with the demo agent keeps its older text in its file,
// and everything still shows the first turn: scrolled back to the top,
// /export, and the text printed at exit hold its reply exactly.
func TestLongSessionShowsTheFirstTurnEverywhere(t *testing.T) {
	d := newDriver(t, Options{Agent: uitest.DemoConfig(t)})
	d.m.tr.log = newTextLog(t.TempDir(), 8<<10) // before any agent text: a small window
	d.m.tr.log.chunk = 4 << 10
	d.connected()
	d.ask("/help")
	d.idle()
	var first string
	var help *mdBody
	for _, it := range d.m.tr.items {
		if it.kind == kindAgent {
			first, help = strings.TrimRight(it.body.String(), "\n"), it.body
		}
	}
	if !strings.HasPrefix(first, "## Demo agent commands") {
		t.Fatalf("the first reply is not the help: %.200q", first)
	}
	for range 4 {
		d.ask("flood 3000")
		d.idle()
	}
	d.m.tr.log.sp.wait()
	d.m.tr.log.reclaim()
	if l := d.m.tr.log; l.find(help.blocks[len(help.blocks)-1].off) >= l.freed {
		t.Fatalf("the first turn was not moved to the file: %d chunks of %d there", l.freed, len(l.chunks))
	}

	d.feed(tea.WindowSizeMsg{Width: 90, Height: 40}) // nothing drawn at this width: what is shown is read back
	pgup := tea.KeyPressMsg{Code: tea.KeyPgUp}
	for prev := -1; d.m.scroll != prev; { // up until the view stops at the top
		prev = d.m.scroll
		d.feed(pgup)
		d.screen()
	}
	for _, want := range []string{"› /help", "Demo agent commands", "Any other text gets a streamed reply", "/flood N: Stream N message chunks"} {
		if !strings.Contains(d.screen(), want) {
			t.Fatalf("scrolled to the top, %q is not on screen:\n%s", want, d.screen())
		}
	}
	d.key("end")

	path := filepath.Join(t.TempDir(), "long.md")
	d.ask("/export " + path)
	d.waitText("conversation written to")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	exported := string(b)
	if !strings.Contains(exported, "> /help\n\n"+first+"\n\n> flood 3000\n") {
		t.Errorf("the export does not hold the first reply exactly:\n%.3000s", exported)
	}
	var printed strings.Builder
	if err := d.m.WriteTranscript(&printed); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(printed.String(), exported) {
		t.Error("the text printed at exit is not the export's")
	}
}
