package ahp

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/elicit-dev/elicit/question"
)

// Generation is the protocol generation a connection speaks, picked from
// the negotiated version: Current (1.x: chat/* actions on the chat channel,
// requests in the active turn's responseParts, a session-level inputNeeded
// aggregate) or Legacy (0.x, the source document's: session/* actions and
// SessionState.inputRequests). It is the one adapter between the neutral
// actions and the wire.
type Generation int

// The two generations.
const (
	Legacy  Generation = 0
	Current Generation = 1
)

// CurrentVersion and LegacyVersion are the versions elicit offers, most
// preferred first.
const (
	CurrentVersion = "1.1.0"
	LegacyVersion  = "0.5.1"
)

// Versions is what elicit speaks, most preferred first.
var Versions = []string{CurrentVersion, LegacyVersion}

// GenerationOf is the generation of a SemVer version: 1.x and later speak
// the current one, 0.x the source document's.
func GenerationOf(version string) Generation {
	if strings.HasPrefix(version, "0.") {
		return Legacy
	}
	return Current
}

func (g Generation) prefix() string {
	if g == Legacy {
		return "session/"
	}
	return "chat/"
}

// InputNeededSet mirrors an open request into the session channel's
// inputNeeded aggregate (current generation only). Host only.
type InputNeededSet struct {
	Chat    string
	Request Request
}

// InputNeededRemoved removes an entry of the aggregate. Host only.
type InputNeededRemoved struct{ ID string }

func (InputNeededSet) isAction()     {}
func (InputNeededRemoved) isAction() {}

// inputChannel is the channel that carries a session's input actions.
func (g Generation) inputChannel(session string) string {
	if g == Legacy {
		return SessionURI(session)
	}
	return ChatURI(session)
}

// encode is the wire action of a on session's channels, and the channel;
// ok is false when the generation has no such action.
func (g Generation) encode(session string, a Action, now time.Time) (channel string, raw json.RawMessage, ok bool) {
	var v map[string]any
	p := g.prefix()
	switch a := a.(type) {
	case InputRequested:
		v = map[string]any{"type": p + "inputRequested", "request": a.Request}
	case InputAnswerChanged:
		v = map[string]any{"type": p + "inputAnswerChanged", "requestId": a.RequestID, "questionId": a.QuestionID}
		if a.Answer != nil {
			v["answer"] = a.Answer
		}
	case InputCompleted:
		v = map[string]any{"type": p + "inputCompleted", "requestId": a.RequestID, "response": a.Response}
		if len(a.Answers) > 0 {
			v["answers"] = a.Answers
		}
	case TurnStarted:
		v = map[string]any{"type": p + "turnStarted", "turnId": a.TurnID, "startedAt": now.UTC().Format(time.RFC3339Nano),
			"message": map[string]any{"text": "", "origin": map[string]string{"kind": "user"}}}
	case TurnEnded:
		switch a.State {
		case TurnCancelled:
			v = map[string]any{"type": p + "turnCancelled", "turnId": a.TurnID, "duration": 0}
		case TurnError:
			v = map[string]any{"type": p + "error", "turnId": a.TurnID, "duration": 0,
				"error": map[string]string{"errorType": "agent", "message": "the turn failed"}}
		default:
			v = map[string]any{"type": p + "turnComplete", "turnId": a.TurnID, "duration": 0}
		}
	case InputNeededSet:
		if g == Legacy {
			return "", nil, false
		}
		v = map[string]any{"type": "session/inputNeededSet", "request": map[string]any{
			"id": a.Request.ID, "chat": a.Chat, "kind": "chatInput", "request": a.Request}}
		raw, _ = json.Marshal(v)
		return SessionURI(session), raw, true
	case InputNeededRemoved:
		if g == Legacy {
			return "", nil, false
		}
		raw, _ = json.Marshal(map[string]any{"type": "session/inputNeededRemoved", "id": a.ID})
		return SessionURI(session), raw, true
	default:
		return "", nil, false
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return "", nil, false
	}
	return g.inputChannel(session), raw, true
}

// wireAction is every field a decoded input or turn action may have.
type wireAction struct {
	Type       string            `json:"type"`
	Request    *Request          `json:"request"`
	RequestID  string            `json:"requestId"`
	QuestionID string            `json:"questionId"`
	Answer     *Answer           `json:"answer"`
	Response   question.Action   `json:"response"`
	Answers    map[string]Answer `json:"answers"`
	TurnID     string            `json:"turnId"`
}

// decode reads a wire action of this generation (the other generation's
// spelling is accepted too). ok is false for an action that is not about
// input requests or turns; err says why one that is cannot be read. The
// host decodes what clients dispatch with it, strictly.
func (g Generation) decode(raw json.RawMessage) (a Action, ok bool, err error) {
	var w wireAction
	if err := json.Unmarshal(raw, &w); err != nil {
		var t struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(raw, &t) == nil && !isInput(t.Type) {
			return nil, false, nil
		}
		return nil, true, err
	}
	return w.action()
}

// clientDecode is decode for what a host sent, read leniently: a field of
// an unexpected type is left out, never a reason to drop the action.
func (g Generation) clientDecode(raw json.RawMessage) (a Action, ok bool, err error) {
	var w wireAction
	lenient(raw, &w)
	return w.action()
}

// action is the neutral action w spells.
func (w *wireAction) action() (a Action, ok bool, err error) {
	name := w.Type
	if i := strings.IndexByte(name, '/'); i >= 0 && (name[:i] == "chat" || name[:i] == "session") {
		name = name[i+1:]
	}
	switch name {
	case "inputRequested":
		if w.Request == nil || w.Request.ID == "" {
			return nil, true, errMissing("request with an id")
		}
		return InputRequested{Request: *w.Request}, true, nil
	case "inputAnswerChanged":
		if w.RequestID == "" || w.QuestionID == "" {
			return nil, true, errMissing("requestId and questionId")
		}
		return InputAnswerChanged{RequestID: w.RequestID, QuestionID: w.QuestionID, Answer: w.Answer}, true, nil
	case "inputCompleted":
		if w.RequestID == "" {
			return nil, true, errMissing("requestId")
		}
		return InputCompleted{RequestID: w.RequestID, Response: w.Response, Answers: w.Answers}, true, nil
	case "turnStarted":
		return TurnStarted{TurnID: w.TurnID}, true, nil
	case "turnComplete":
		return TurnEnded{TurnID: w.TurnID, State: TurnComplete}, true, nil
	case "turnCancelled":
		return TurnEnded{TurnID: w.TurnID, State: TurnCancelled}, true, nil
	case "error", "truncated":
		return TurnEnded{TurnID: w.TurnID, State: TurnError}, true, nil
	}
	return nil, false, nil
}

func isInput(t string) bool { return strings.Contains(t, "/input") }

type missingError string

func (m missingError) Error() string { return "missing " + string(m) }

func errMissing(what string) error { return missingError(what) }

// inputPart is a responsePart of kind inputRequest.
type inputPart struct {
	Kind     string          `json:"kind"`
	Request  Request         `json:"request"`
	Response question.Action `json:"response,omitempty"`
}

// chatState is the part of ChatState elicit reads and writes.
type chatState struct {
	Resource   string      `json:"resource"`
	Title      string      `json:"title"`
	Status     int         `json:"status"`
	ModifiedAt string      `json:"modifiedAt"`
	Turns      []any       `json:"turns"`
	ActiveTurn *activeTurn `json:"activeTurn,omitempty"`
}

type activeTurn struct {
	ID            string            `json:"id"`
	StartedAt     string            `json:"startedAt"`
	Message       map[string]any    `json:"message"`
	ResponseParts []json.RawMessage `json:"responseParts"`
	Usage         json.RawMessage   `json:"usage,omitempty"` // optional: left out, never null
}

// sessionState is the part of SessionState elicit reads and writes, of
// both generations (inputRequests is the legacy one's, inputNeeded and
// chats the current one's).
type sessionState struct {
	Provider      string          `json:"provider"`
	Title         string          `json:"title"`
	Status        int             `json:"status"`
	Lifecycle     string          `json:"lifecycle"`
	ActiveClients []any           `json:"activeClients"`
	Chats         []chatSummary   `json:"chats,omitempty"`
	DefaultChat   string          `json:"defaultChat,omitempty"`
	InputNeeded   []neededEntry   `json:"inputNeeded,omitempty"`
	Turns         []any           `json:"turns,omitempty"`
	ActiveTurn    *activeTurn     `json:"activeTurn,omitempty"`
	InputRequests []Request       `json:"inputRequests,omitempty"`
	Meta          json.RawMessage `json:"_meta,omitempty"`
}

type chatSummary struct {
	Resource   string `json:"resource"`
	Title      string `json:"title"`
	Status     int    `json:"status"`
	ModifiedAt string `json:"modifiedAt"`
}

type neededEntry struct {
	ID      string  `json:"id"`
	Chat    string  `json:"chat"`
	Kind    string  `json:"kind"`
	Request Request `json:"request"`
}

// stateInfo is what a snapshot says besides the inputs.
type stateInfo struct {
	Title, Provider string
	Status          int
	Now             time.Time
	Meta            *SessionMeta // same-user connections only
}

// sessionSnapshot is the session channel's state.
func (g Generation) sessionSnapshot(session string, in Inputs, info stateInfo) json.RawMessage {
	st := sessionState{Provider: info.Provider, Title: info.Title, Status: info.Status, Lifecycle: "ready", ActiveClients: []any{},
		Meta: sessionMetaRaw(info.Meta)}
	if g == Legacy {
		st.Turns = []any{}
		st.ActiveTurn = turnOf(in, info, false)
		st.InputRequests = in.OpenRequests()
	} else {
		chat := ChatURI(session)
		st.Chats = []chatSummary{{Resource: chat, Title: info.Title, Status: info.Status, ModifiedAt: info.Now.UTC().Format(time.RFC3339)}}
		st.DefaultChat = chat
		for _, r := range in.OpenRequests() {
			st.InputNeeded = append(st.InputNeeded, neededEntry{ID: r.ID, Chat: chat, Kind: "chatInput", Request: r})
		}
	}
	raw, _ := json.Marshal(st)
	return raw
}

// chatSnapshot is the chat channel's state (current generation).
func chatSnapshot(session string, in Inputs, info stateInfo) json.RawMessage {
	st := chatState{Resource: ChatURI(session), Title: info.Title, Status: info.Status,
		ModifiedAt: info.Now.UTC().Format(time.RFC3339), Turns: []any{}, ActiveTurn: turnOf(in, info, true)}
	raw, _ := json.Marshal(st)
	return raw
}

func turnOf(in Inputs, info stateInfo, parts bool) *activeTurn {
	if in.Turn == "" {
		return nil
	}
	t := &activeTurn{ID: in.Turn, StartedAt: info.Now.UTC().Format(time.RFC3339), ResponseParts: []json.RawMessage{},
		Message: map[string]any{"text": "", "origin": map[string]string{"kind": "user"}}}
	if parts {
		for _, e := range in.Entries {
			raw, _ := json.Marshal(inputPart{Kind: "inputRequest", Request: e.Request, Response: e.Response})
			t.ResponseParts = append(t.ResponseParts, raw)
		}
	}
	return t
}

// inputsOf reads the inputs of a snapshot a host sent, leniently: a chat
// state's active turn (current) or a session state's inputRequests
// (legacy). What it cannot read is left out.
func (g Generation) inputsOf(raw json.RawMessage) Inputs {
	var in Inputs
	if g == Legacy {
		var st sessionState
		lenient(raw, &st)
		if st.ActiveTurn != nil {
			in.Turn = st.ActiveTurn.ID
		}
		for _, r := range st.InputRequests {
			in.Entries = append(in.Entries, Entry{Request: r})
		}
		return in
	}
	var st chatState
	lenient(raw, &st)
	if st.ActiveTurn == nil {
		return in
	}
	in.Turn = st.ActiveTurn.ID
	for _, p := range st.ActiveTurn.ResponseParts {
		var ip inputPart
		lenient(p, &ip)
		if ip.Kind != "inputRequest" || ip.Request.ID == "" {
			continue // other parts (markdown, tool calls…) are not ours
		}
		in.Entries = append(in.Entries, Entry{Request: ip.Request, Response: ip.Response})
	}
	return in
}
