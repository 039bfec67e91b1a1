package fullscreen

import (
	"strings"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// warmOnFence readies syntax colour in the background the first time the
// agent's text opens a code block (a chunk holds a ``` or ~~~ fence), while
// the rest of the block streams: chroma registers its lexers on first use
// (third_party/chroma, PATCH.md), some 30 million instructions and 3 MiB
// that the reply would otherwise pay when the block is drawn. A session
// whose replies hold no code pays nothing. It returns nil after the first
// fence; it runs in Update only.
func (md *markdown) warmOnFence(text string) tea.Cmd {
	if md.warmStarted.Load() {
		return nil
	}
	i := strings.Index(text, "```")
	if i < 0 {
		i = strings.Index(text, "~~~")
	}
	if i < 0 {
		return nil
	}
	md.warmStarted.Store(true)
	return md.warmSyntax(fenceLanguage(text[i+3:]))
}

// fenceLanguage is the language a fence's info string names ("" when the
// chunk ends before it or names none).
func fenceLanguage(s string) string {
	s = strings.TrimLeft(s, "`~ ")
	end := strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '#' || r == '_')
	})
	if end < 0 {
		return "" // the info string may go on in the next chunk
	}
	return s[:end]
}

// warmSyntax registers chroma's lexers and readies the lexer for lang
// (when chroma knows it). It holds md.mu, as glamour's renders do, and
// only reads chroma's registries, so it never races glamour registering
// its code block style. Idempotent; it returns no message.
func (md *markdown) warmSyntax(lang string) tea.Cmd {
	return func() tea.Msg {
		md.mu.Lock()
		defer md.mu.Unlock()
		l := lexers.Get(lang) // the first lookup registers them all
		if lang == "" || l == nil {
			return nil
		}
		if it, err := chroma.Coalesce(l).Tokenise(nil, "x\n"); err == nil {
			for t := it(); t != chroma.EOF; t = it() {
			}
		}
		return nil
	}
}

// warmState is markdown's part in warmOnFence.
type warmState struct {
	warmStarted atomic.Bool
}
