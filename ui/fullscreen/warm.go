package fullscreen

import (
	tea "charm.land/bubbletea/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// warmLanguages are the code block languages whose lexers are readied
// before the first reply: the ones agents write most.
var warmLanguages = []string{"go", "python", "bash", "json", "diff"}

// warmSyntax readies syntax colour in the background once the session is
// up (after the first frame): chroma registers its lexers and reads its
// styles on first use (third_party/chroma, PATCH.md), some 30 million
// instructions that the first reply with a code block or a diff would
// otherwise pay while the user waits. It holds md.mu, as glamour's renders
// do, and only reads chroma's registries, so it never races glamour
// registering its code block style. Idempotent; it returns no message.
func (md *markdown) warmSyntax() tea.Cmd {
	return func() tea.Msg {
		md.warmOnce.Do(func() {
			md.mu.Lock()
			defer md.mu.Unlock()
			for _, name := range warmLanguages {
				if l := lexers.Get(name); l != nil {
					if it, err := chroma.Coalesce(l).Tokenise(nil, "x\n"); err == nil {
						for t := it(); t != chroma.EOF; t = it() {
						}
					}
				}
			}
			for _, name := range []string{"github", "github-dark"} { // internal/diffview's
				styles.Get(name).Get(chroma.Text)
			}
		})
		return nil
	}
}
