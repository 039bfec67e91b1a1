package demoagent

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"
)

// Session modes: "ask" asks permission before an edit, "auto" edits without asking.
const (
	modeAsk  acp.SessionModeId = "ask"
	modeAuto acp.SessionModeId = "auto"
)

// The one config option, "pace": how fast replies stream.
const (
	optionPace  acp.SessionConfigId      = "pace"
	paceNormal  acp.SessionConfigValueId = "normal"
	paceInstant acp.SessionConfigValueId = "instant"
)

// remembered permission decisions ("allow always", "reject always").
const (
	permAsk = iota
	permAllow
	permReject
)

// session is one ACP session: its settings and the cancel function of its running turn.
type session struct {
	id  acp.SessionId
	cwd string

	mu         sync.Mutex
	mode       acp.SessionModeId
	pace       acp.SessionConfigValueId
	permission int
	cancel     context.CancelFunc
	turnSeq    uint64
	legacyID   string // the URL flow /legacy waits for
}

func newSession(cwd string) *session {
	return &session{
		id:   acp.SessionId("demo-" + strings.ToLower(rand.Text())),
		cwd:  cwd,
		mode: modeAsk,
		pace: paceNormal,
	}
}

// startTurn makes the context of a new turn, cancelling the turn before it if one still runs.
// The returned func ends the turn.
func (s *session) startTurn(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	s.mu.Lock()
	prev := s.cancel
	s.turnSeq++
	seq := s.turnSeq
	s.cancel = cancel
	s.mu.Unlock()
	if prev != nil {
		prev()
	}
	return ctx, func() {
		cancel()
		s.mu.Lock()
		if s.turnSeq == seq {
			s.cancel = nil
		}
		s.mu.Unlock()
	}
}

// cancelTurn cancels the running turn, if any.
func (s *session) cancelTurn() {
	s.mu.Lock()
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (s *session) settings() (mode acp.SessionModeId, pace acp.SessionConfigValueId, permission int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode, s.pace, s.permission
}

func (s *session) rememberPermission(p int) {
	s.mu.Lock()
	s.permission = p
	s.mu.Unlock()
}

func (s *session) setMode(id acp.SessionModeId) error {
	if id != modeAsk && id != modeAuto {
		return fmt.Errorf("unknown mode %q (the demo agent has %q and %q)", id, modeAsk, modeAuto)
	}
	s.mu.Lock()
	s.mode = id
	s.mu.Unlock()
	return nil
}

func (s *session) setOption(id acp.SessionConfigId, v acp.SessionConfigValueId) error {
	if id != optionPace {
		return fmt.Errorf("unknown config option %q", id)
	}
	if v != paceNormal && v != paceInstant {
		return fmt.Errorf("unknown value %q for %q", v, id)
	}
	s.mu.Lock()
	s.pace = v
	s.mu.Unlock()
	return nil
}

func (s *session) modeState() *acp.SessionModeState {
	mode, _, _ := s.settings()
	return &acp.SessionModeState{
		CurrentModeId: mode,
		AvailableModes: []acp.SessionMode{
			{Id: modeAsk, Name: "Ask", Description: acp.Ptr("Ask permission before editing files")},
			{Id: modeAuto, Name: "Auto", Description: acp.Ptr("Edit files without asking")},
		},
	}
}

func (s *session) configOptions() []acp.SessionConfigOption {
	_, pace, _ := s.settings()
	opts := acp.SessionConfigSelectOptionsUngrouped{
		{Value: paceNormal, Name: "Normal", Description: acp.Ptr("Stream replies in small chunks a few ms apart")},
		{Value: paceInstant, Name: "Instant", Description: acp.Ptr("Send replies without pauses")},
	}
	o := acp.NewSessionConfigOptionSelect(pace, acp.SessionConfigSelectOptions{Ungrouped: &opts})
	o.Select.Id = optionPace
	o.Select.Name = "Pace"
	o.Select.Description = acp.Ptr("How fast the demo agent streams its replies")
	return []acp.SessionConfigOption{o}
}
