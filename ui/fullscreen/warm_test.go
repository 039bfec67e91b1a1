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
	go func() { defer wg.Done(); md.warmSyntax("go")() }()
	go func() { defer wg.Done(); got = ansi.Strip(strings.Join(md.render(text, 60), "\n")) }()
	wg.Wait()
	if got != want {
		t.Errorf("render beside the warm-up:\n%q\nwant\n%q", got, want)
	}
	if msg := md.warmSyntax("python")(); msg != nil {
		t.Errorf("warmSyntax returned %v", msg)
	}
}

// TestWarmOnFirstFence checks that syntax colour is readied once, when the
// agent's text first opens a code block, and never for text without one.
func TestWarmOnFirstFence(t *testing.T) {
	md := newMarkdown(true, false)
	for _, text := range []string{"plain text", "a `span` of code", "``"} {
		if md.warmOnFence(text) != nil {
			t.Fatalf("warmed for %q, which opens no code block", text)
		}
	}
	if md.warmOnFence("here:\n```go\nfunc") == nil {
		t.Fatal("the first fence did not warm")
	}
	if md.warmOnFence("```python\n") != nil {
		t.Fatal("a second fence warmed again")
	}
	for in, want := range map[string]string{"go\nx": "go", "``c++ \n": "c++", " shell\n": "shell", "py": "", "\n": ""} {
		if got := fenceLanguage(in); got != want {
			t.Errorf("fenceLanguage(%q) = %q, want %q", in, got, want)
		}
	}
}
