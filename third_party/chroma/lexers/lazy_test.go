package lexers

import (
	"io/fs"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

// TestLazyRegistryHasEveryLexer checks elicit's patch (PATCH.md): the first
// lookup registers every embedded XML lexer, before the Go-coded ones (so
// they win a shared name or alias, as upstream).
func TestLazyRegistryHasEveryLexer(t *testing.T) {
	paths, err := fs.Glob(embedded, "embedded/*.xml")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, p := range paths {
		l, err := chroma.NewXMLLexer(embedded, p)
		if err != nil {
			t.Fatal(err)
		}
		name := l.Config().Name
		names[name] = true
		if got := Get(name); got == nil || got.Config().Name != name {
			t.Errorf("Get(%q) = %v", name, got)
		}
	}
	if got := len(GlobalLexerRegistry.Lexers); got < len(names) {
		t.Fatalf("%d lexers registered, %d embedded", got, len(names))
	}
	if Get("go") != Go || Get("markdown") != Markdown || Match("main.go") != Go {
		t.Errorf("the Go-coded lexers do not win their names")
	}
	// A Go-coded lexer of an embedded one's name takes its slot (Common
	// Lisp, EmacsLisp), as upstream; the others come after.
	for i, l := range GlobalLexerRegistry.Lexers[:len(paths)] {
		if !names[l.Config().Name] {
			t.Errorf("lexer %d (%s) is not an embedded one: the embedded lexers must come first", i, l.Config().Name)
		}
	}
}
