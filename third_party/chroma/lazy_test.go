package chroma

import (
	"errors"
	"sync"
	"testing"
)

// Tests of elicit's patch (PATCH.md): lazy registries and styles.

func TestLazyLexerRegistryLoadsOnFirstLookup(t *testing.T) {
	loads := 0
	xml := MustNewLexer(&Config{Name: "XMLish", Aliases: []string{"x"}, Filenames: []string{"*.x"}}, func() Rules { return Rules{"root": {}} })
	early := MustNewLexer(&Config{Name: "Early", Aliases: []string{"x"}}, func() Rules { return Rules{"root": {}} })
	reg := NewLazyLexerRegistry(func(r *LexerRegistry) {
		loads++
		r.Register(xml)
	})
	reg.Register(early)
	if loads != 0 {
		t.Fatalf("Register ran the load (%d)", loads)
	}
	if got := reg.Get("XMLish"); got != xml {
		t.Fatalf("Get(XMLish) = %v, want the loaded lexer", got)
	}
	// Registered before the load, so registered again after it: its alias
	// wins, as when the loaded lexers came first (upstream's order).
	if got := reg.Get("x"); got != early {
		t.Fatalf("Get(x) = %v, want the early lexer", got)
	}
	if got := reg.Names(false); len(got) != 2 || got[0] != "Early" || got[1] != "XMLish" {
		t.Fatalf("Names = %v", got)
	}
	if reg.Lexers[0] != xml || reg.Lexers[1] != early {
		t.Fatalf("order = %v, want the loaded lexer first", reg.Lexers)
	}
	reg.Match("a.x")
	reg.MatchMimeType("text/x")
	reg.Analyse("x")
	if loads != 1 {
		t.Fatalf("load ran %d times", loads)
	}
}

func TestLazyLexerRegistryConcurrentLookups(t *testing.T) {
	var mu sync.Mutex
	loads := 0
	reg := NewLazyLexerRegistry(func(r *LexerRegistry) {
		mu.Lock()
		loads++
		mu.Unlock()
		r.Register(MustNewLexer(&Config{Name: "A", Filenames: []string{"*.a"}}, func() Rules { return Rules{"root": {}} }))
	})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if reg.Match("f.a") == nil {
				t.Error("no lexer for f.a")
			}
		}()
	}
	wg.Wait()
	if loads != 1 {
		t.Fatalf("load ran %d times", loads)
	}
}

func TestLazyStyleReadsOnFirstUse(t *testing.T) {
	loads := 0
	s := NewLazyStyle("lazy", func() (*Style, error) {
		loads++
		return NewStyle("lazy", StyleEntries{Keyword: "bold #ff0000", Background: "bg:#000000"})
	})
	if loads != 0 {
		t.Fatal("NewLazyStyle read the style")
	}
	eager := MustNewStyle("lazy", StyleEntries{Keyword: "bold #ff0000", Background: "bg:#000000"})
	for _, tt := range []TokenType{Keyword, KeywordType, Text, Background, LineNumbers, LineHighlight} {
		if got, want := s.Get(tt), eager.Get(tt); got != want {
			t.Errorf("Get(%s) = %v, want %v", tt, got, want)
		}
	}
	if len(s.Types()) != len(eager.Types()) || !s.Has(Keyword) {
		t.Errorf("Types or Has differ from an eager style")
	}
	b, err := s.Builder().Add(Comment, "italic").Build()
	if err != nil || b.Get(Keyword) != eager.Get(Keyword) {
		t.Errorf("a builder on a lazy style lost its parent's entries (%v)", err)
	}
	if loads != 1 {
		t.Fatalf("load ran %d times", loads)
	}
}

func TestLazyStyleConcurrentUse(t *testing.T) {
	s := NewLazyStyle("c", func() (*Style, error) { return NewStyle("c", StyleEntries{Keyword: "#00ff00"}) })
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !s.Get(Keyword).Colour.IsSet() {
				t.Error("keyword colour not set")
			}
		}()
	}
	wg.Wait()
}

func TestLazyStylePanicsOnABadDefinition(t *testing.T) {
	for name, load := range map[string]func() (*Style, error){
		"error":      func() (*Style, error) { return nil, errors.New("broken") },
		"other name": func() (*Style, error) { return NewStyle("other", StyleEntries{}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			NewLazyStyle("s", load).Get(Text)
		}()
	}
}
