package fullscreen

import "github.com/elicit-dev/elicit/ui/internal/focus"

// The input arbiter is the one owner of the rule that a question never
// takes keystrokes that were flowing into the prompt; it lives in
// ui/internal/focus, shared with `elicit mcp`'s full screen.
type (
	arbiter     = focus.Arbiter
	dockTickMsg = focus.TickMsg
)
