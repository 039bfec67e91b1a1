package fullscreen

import (
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWarmSyntaxBesideARender runs the background warm-up while a reply
// with code blocks renders (under -race: the warm-up must not touch
// chroma's registries unguarded while glamour registers its style), and
// checks the render shows the same text as one without it (the text only:
// chroma's 256-colour formatter breaks ties between equally near colours
// in map order, so colours may differ between two renders of upstream too).
func TestWarmSyntaxBesideARender(t *testing.T) {
	const text = "```go\nfunc f() {}\n```\n\n```python\nx = 1\n```\n"
	want := ansi.Strip(strings.Join(newMarkdown(true, false).render(text, 60), "\n"))
	md := newMarkdown(true, false)
	var wg sync.WaitGroup
	var got string
	wg.Add(2)
	go func() { defer wg.Done(); md.warmSyntax()() }()
	go func() { defer wg.Done(); got = ansi.Strip(strings.Join(md.render(text, 60), "\n")) }()
	wg.Wait()
	if got != want {
		t.Errorf("render beside the warm-up:\n%q\nwant\n%q", got, want)
	}
	if msg := md.warmSyntax()(); msg != nil {
		t.Errorf("warmSyntax returned %v", msg)
	}
}
