package acpconn

import (
	"context"
	"fmt"
	"strings"

	acp "github.com/coder/acp-go-sdk"
)

// The two settings the UI shows as one concept each, however the agent
// expresses them.
const (
	KindMode  = "mode"
	KindModel = "model"
)

// Selector is the session's mode or its model as one list of choices. An
// agent may express either as a legacy field (modes with session/set_mode,
// the unstable models with session/set_model), as a config option of that
// category (session/set_config_option), or both at once (claude, codex
// and qwen send modes and a mode option): the option wins, since it is
// the newer form and its answer carries every option's new value; the
// legacy list is then not shown at all, so the two can never disagree.
type Selector struct {
	Kind    string // KindMode or KindModel
	Current string
	Choices []Choice
	// Option is the config option behind the selector, nil when it is the
	// legacy field.
	Option *ConfigOption
}

// Selector returns the session's mode or model; ok is false when the agent
// offers none.
func (st SessionState) Selector(kind string) (Selector, bool) {
	for i := range st.Options {
		o := &st.Options[i]
		if o.Category == kind && !o.Boolean && len(o.Values) > 0 {
			return Selector{Kind: kind, Current: o.Current, Choices: o.Values, Option: o}, true
		}
	}
	switch kind {
	case KindMode:
		if len(st.Modes) == 0 {
			return Selector{}, false
		}
		s := Selector{Kind: kind, Current: st.Mode}
		for _, m := range st.Modes {
			s.Choices = append(s.Choices, Choice(m))
		}
		return s, true
	case KindModel:
		if len(st.Models) == 0 {
			return Selector{}, false
		}
		return Selector{Kind: kind, Current: st.Model, Choices: st.Models}, true
	}
	return Selector{}, false
}

// OtherOptions are the config options not shown as the mode or the model.
func (st SessionState) OtherOptions() []ConfigOption {
	var out []ConfigOption
	mode, _ := st.Selector(KindMode)
	model, _ := st.Selector(KindModel)
	for _, o := range st.Options {
		if mode.Option != nil && o.ID == mode.Option.ID || model.Option != nil && o.ID == model.Option.ID {
			continue
		}
		out = append(out, o)
	}
	return out
}

// CurrentName is the current choice's name (its id when it has none).
func (s Selector) CurrentName() string {
	for _, c := range s.Choices {
		if c.ID == s.Current {
			if c.Name != "" {
				return c.Name
			}
			break
		}
	}
	return s.Current
}

// Find picks a choice by id, else by name (case-insensitive), as typed
// in --mode or --model.
func (s Selector) Find(want string) (Choice, bool) {
	for _, c := range s.Choices {
		if c.ID == want {
			return c, true
		}
	}
	for _, c := range s.Choices {
		if strings.EqualFold(c.Name, want) || strings.EqualFold(c.ID, want) {
			return c, true
		}
	}
	return Choice{}, false
}

// Next is the choice after the current one, cycling.
func (s Selector) Next() Choice {
	if len(s.Choices) == 0 {
		return Choice{}
	}
	for i, c := range s.Choices {
		if c.ID == s.Current {
			return s.Choices[(i+1)%len(s.Choices)]
		}
	}
	return s.Choices[0]
}

// IDs lists the choices' ids, for an error message.
func (s Selector) IDs() string {
	ids := make([]string, len(s.Choices))
	for i, c := range s.Choices {
		ids[i] = c.ID
	}
	return strings.Join(ids, ", ")
}

// Update applies an event that changes the session's settings (a mode
// change, new config options) and reports whether it did. A mode change
// also moves a mode option that offers the same value, so the two forms
// stay one.
func (st *SessionState) Update(ev Event) bool {
	switch ev := ev.(type) {
	case ModeChanged:
		st.Mode = ev.ID
		for i := range st.Options {
			if st.Options[i].Category == KindMode && hasChoice(st.Options[i].Values, ev.ID) {
				st.Options[i].Current = ev.ID
			}
		}
		return true
	case ConfigOptions:
		st.Options = ev.Options
		st.syncLegacy()
		return true
	}
	return false
}

// syncLegacy moves the legacy mode and model to what their options say.
func (st *SessionState) syncLegacy() {
	for _, o := range st.Options {
		switch {
		case o.Category == KindMode && hasChoice(choicesOfModes(st.Modes), o.Current):
			st.Mode = o.Current
		case o.Category == KindModel && hasChoice(st.Models, o.Current):
			st.Model = o.Current
		}
	}
}

func choicesOfModes(ms []Mode) []Choice {
	out := make([]Choice, len(ms))
	for i, m := range ms {
		out[i] = Choice(m)
	}
	return out
}

func hasChoice(cs []Choice, id string) bool {
	for _, c := range cs {
		if c.ID == id {
			return true
		}
	}
	return false
}

// Select sets the selector to choice id the way the agent expresses it,
// and returns the session state as it is now.
func (c *Conn) Select(ctx context.Context, st SessionState, s Selector, id string) (SessionState, error) {
	switch {
	case s.Option != nil:
		opts, err := c.setConfigOption(ctx, *s.Option, id)
		if err != nil {
			return st, err
		}
		if opts != nil {
			st.Options = opts
		} else {
			st.setOption(s.Option.ID, id)
		}
		st.syncLegacy()
	case s.Kind == KindMode:
		if err := c.SetMode(ctx, id); err != nil {
			return st, err
		}
		st.Update(ModeChanged{ID: id})
	case s.Kind == KindModel:
		if err := c.setModel(ctx, id); err != nil {
			return st, err
		}
		st.Model = id
	default:
		return st, fmt.Errorf("unknown setting %q", s.Kind)
	}
	return st, nil
}

func (st *SessionState) setOption(id, value string) {
	for i := range st.Options {
		if st.Options[i].ID == id {
			st.Options[i].Current = value
		}
	}
}

// setModel switches the session's model with the unstable
// session/set_model (agents that list models in the models field).
func (c *Conn) setModel(ctx context.Context, id string) error {
	_, err := sendRequest[acp.UnstableSetSessionModelResponse](c, ctx, acp.AgentMethodSessionSetModel, acp.UnstableSetSessionModelRequest{SessionId: acp.SessionId(c.SessionID()), ModelId: acp.UnstableModelId(id)})
	if err != nil {
		return c.describe("session/set_model", err)
	}
	return nil
}
