package opener

import (
	"context"
	"fmt"

	"github.com/elicit-dev/elicit/acpconn"
	"github.com/elicit-dev/elicit/internal/sanitize"
)

// Setting is what became of --mode or --model.
type Setting struct {
	Kind string // acpconn.KindMode or acpconn.KindModel
	Want string // as given: an id or a name
	// Choice is the choice it named; Changed is false when it was current
	// already (nothing was sent).
	Choice  acpconn.Choice
	Changed bool
	// Err says why it was not set: the agent offers no such setting, or
	// not that value (the error lists those it offers), or refused it.
	// It names the flag: "--mode yolo: the agent offers ask, code".
	Err error
}

// apply sets the mode, then the model, on the open session st, however
// the agent expresses them (a config option, or the legacy fields).
func apply(ctx context.Context, c *acpconn.Conn, st *acpconn.SessionState, mode, model string) []Setting {
	var out []Setting
	for _, f := range []struct{ kind, want string }{{acpconn.KindMode, mode}, {acpconn.KindModel, model}} {
		if f.want == "" {
			continue
		}
		s := Setting{Kind: f.kind, Want: f.want}
		flag := fmt.Sprintf("--%s %s", f.kind, sanitize.Line(f.want))
		sel, ok := st.Selector(f.kind)
		ch, found := sel.Find(f.want)
		switch {
		case !ok:
			s.Err = fmt.Errorf("%s: the agent offers no %s", flag, f.kind)
		case !found:
			s.Err = fmt.Errorf("%s: the agent offers %s", flag, sanitize.Line(sel.IDs()))
		case ch.ID == sel.Current:
			s.Choice = ch
		default:
			s.Choice = ch
			nst, err := c.Select(ctx, *st, sel, ch.ID)
			if err != nil {
				s.Err = fmt.Errorf("%s: %w", flag, err)
				break
			}
			*st, s.Changed = nst, true
		}
		out = append(out, s)
	}
	return out
}

// Name is the choice's name, else its id, for a message.
func (s Setting) Name() string {
	if s.Choice.Name != "" {
		return s.Choice.Name
	}
	return sanitize.Line(s.Choice.ID)
}
