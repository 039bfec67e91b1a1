package acpconn

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"time"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// The agents' terminal extension (claude-agent-acp, codex-acp; DESIGN.md
// section 3): neither calls terminal/*. A client that declares
// clientCapabilities._meta.terminal_output (and terminal_output_delta) is
// told about the commands they run themselves in the _meta of their tool
// calls:
//
//	tool_call         _meta.terminal_info   {terminal_id}
//	tool_call_update  _meta.terminal_output_delta {terminal_id, data}  a chunk to append
//	tool_call_update  _meta.terminal_output {terminal_id, data}        see below
//	tool_call_update  _meta.terminal_exit   {terminal_id, exit_code, signal}
//
// terminal_output is a chunk for codex-acp 0.16.0 (it knows no delta, and
// sends every piece of output as terminal_output) and the whole output so
// far for claude-agent-acp (which sends deltas to a client that declares
// them). One rule reads both: output that begins with everything shown so
// far is the whole output, and only what it adds is new; anything else is
// a chunk. What was shown is remembered as its length and a hash, so
// telling them apart holds no output.
//
// Claude Code also sends progress beats while a command runs,
// _meta.claudeCode.toolResponse.elapsedTimeSeconds (ToolCall.Elapsed).

// terminalMetaCaps declares the extension in initialize.
func terminalMetaCaps() map[string]any {
	return map[string]any{"terminal_output": true, "terminal_output_delta": true}
}

// maxMetaTerminals bounds the extension's terminals followed at once (a
// few bytes and a held partial line each); past it a new terminal's output
// goes out as it comes, unheld, and its exit ends nothing held.
const maxMetaTerminals = 256

// termMeta is the extension's part of one update's _meta.
type termMeta struct {
	info          string // terminal_info.terminal_id
	output, delta *termData
	exit          *termExit
	elapsed       time.Duration // claudeCode.toolResponse.elapsedTimeSeconds
}

// termData is terminal_output or terminal_output_delta.
type termData struct{ id, data string }

// termExit is terminal_exit: code and signal nil when the agent gave none.
type termExit struct {
	id     string
	code   *int
	signal *string
}

// metaWire is an update's _meta as the extension reads it: each member
// leniently (one of another shape is ignored, never a reason to refuse the
// update), other members skipped. An object or null, like the SDK's map.
type metaWire struct{ m *termMeta }

// UnmarshalJSON implements json.Unmarshaler.
func (w *metaWire) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' && b[0] != 'n' {
		return errShape
	}
	if b[0] == 'n' {
		return nil
	}
	var v struct {
		Info lenient[struct {
			ID string `json:"terminal_id"`
		}] `json:"terminal_info"`
		Output     lenient[dataWire] `json:"terminal_output"`
		Delta      lenient[dataWire] `json:"terminal_output_delta"`
		Exit       lenient[exitWire] `json:"terminal_exit"`
		ClaudeCode lenient[struct {
			ToolResponse lenient[elapsedWire] `json:"toolResponse"`
		}] `json:"claudeCode"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	m := &termMeta{}
	if v.Info.ok && v.Info.v.ID != "" {
		m.info = v.Info.v.ID
	}
	m.output, m.delta = v.Output.v.data(v.Output.ok), v.Delta.v.data(v.Delta.ok)
	if v.Exit.ok {
		m.exit = &termExit{id: v.Exit.v.ID, signal: v.Exit.v.Signal}
		if c := v.Exit.v.Code; c != nil && *c == math.Trunc(*c) && math.Abs(*c) < 1<<31 {
			code := int(*c)
			m.exit.code = &code
		}
	}
	if r := v.ClaudeCode.v.ToolResponse; v.ClaudeCode.ok && r.ok && r.v.Elapsed != nil && *r.v.Elapsed >= 0 && *r.v.Elapsed < 1e7 {
		m.elapsed = time.Duration(*r.v.Elapsed * float64(time.Second)).Round(time.Millisecond)
	}
	if *m != (termMeta{}) {
		w.m = m
	}
	return nil
}

// lenient holds a member that decoded as T; ok is false for one of
// another shape, which is then ignored.
type lenient[T any] struct {
	v  T
	ok bool
}

// UnmarshalJSON implements json.Unmarshaler; it never fails.
func (l *lenient[T]) UnmarshalJSON(b []byte) error {
	var v T
	if json.Unmarshal(b, &v) == nil && !bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		l.v, l.ok = v, true
	}
	return nil
}

type dataWire struct {
	ID   string  `json:"terminal_id"`
	Data *string `json:"data"`
}

func (d dataWire) data(ok bool) *termData {
	if !ok || d.Data == nil {
		return nil
	}
	return &termData{id: d.ID, data: *d.Data}
}

type exitWire struct {
	ID     string   `json:"terminal_id"`
	Code   *float64 `json:"exit_code"`
	Signal *string  `json:"signal"`
}

type elapsedWire struct {
	Elapsed *float64 `json:"elapsedTimeSeconds"`
}

// metaOf reads the extension from an update's raw JSON (the SDK's path,
// which keeps _meta as a map: read again here so both paths agree).
func metaOf(update json.RawMessage) *termMeta {
	var v struct {
		Meta metaWire `json:"_meta"`
	}
	if json.Unmarshal(update, &v) != nil {
		return nil
	}
	return v.Meta.m
}

// withMeta adds what the extension says to a tool call event: the
// terminal it shows and the agent's elapsed time.
func withMeta(tc ToolCall, m *termMeta) ToolCall {
	if m == nil {
		return tc
	}
	tc.meta, tc.Elapsed = m, m.elapsed
	if id := m.info; id != "" && !contains(tc.Terminals, id) {
		tc.Terminals = append(tc.Terminals, id)
	}
	return tc
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// metaTerminals follows the extension's terminals: per terminal, the
// output held back until a line ends (as terminal/* output is) and what
// was shown so far, as a length and a hash. Only the handler's goroutine
// (notifications are handled one at a time) uses it.
type metaTerminals struct {
	byID map[string]*metaTerm
}

type metaTerm struct {
	hold  []byte
	shown int    // bytes of output shown
	sum   uint64 // FNV-1a of them
}

// ErrNoExitStatus is the Err of a command the agent reported ended
// without an exit code or a signal.
var ErrNoExitStatus = errors.New("ended (no exit status reported)")

// terminalEvents turns the extension in a tool call event into the
// TerminalOutput events that follow it, and takes it out of the event.
func (c *Conn) terminalEvents(ev Event) (Event, []Event) {
	tc, ok := ev.(ToolCall)
	if !ok || tc.meta == nil {
		return ev, nil
	}
	m := tc.meta
	tc.meta = nil
	ts := &c.metaTerms
	var out []Event
	emit := func(id string, chunk []byte) {
		if len(chunk) > 0 {
			out = append(out, TerminalOutput{TerminalID: id, ToolCallID: tc.ID, Chunk: sanitize.Text(string(chunk))})
		}
	}
	add := func(id, data string, whole bool) {
		t := ts.get(id)
		b := []byte(data)
		if whole && t.shown > 0 && len(b) > t.shown && fnv(fnvBasis, b[:t.shown]) == t.sum {
			b = b[t.shown:] // the whole output so far: what is new is its end
		}
		t.shown += len(b)
		t.sum = fnv(t.sum, b)
		b = tailOf(b, DefaultOutputLimit)
		t.hold = append(t.hold, b...)
		for {
			cut := streamCut(t.hold)
			if cut == 0 {
				break
			}
			emit(id, t.hold[:cut])
			t.hold = t.hold[cut:]
		}
		if len(t.hold) == 0 {
			t.hold = nil
		}
		if !ts.keep(id, t) {
			emit(id, t.hold) // not followed: nothing is held
		}
	}
	if d := m.output; d != nil {
		add(d.id, d.data, true)
	}
	if d := m.delta; d != nil {
		add(d.id, d.data, false)
	}
	if x := m.exit; x != nil {
		if t := ts.byID[x.id]; t != nil {
			emit(x.id, t.hold)
			delete(ts.byID, x.id)
		}
		info := ExitInfo{Code: -1}
		switch {
		case x.signal != nil && *x.signal != "":
			info.Signal = sanitize.Summary(*x.signal, 40)
		case x.code != nil:
			info.Code = *x.code
		default:
			info.Err = ErrNoExitStatus
		}
		out = append(out, TerminalOutput{TerminalID: x.id, ToolCallID: tc.ID, Exited: true, Exit: info})
	}
	return tc, out
}

// get returns the terminal's state, a fresh one for a new terminal.
func (ts *metaTerminals) get(id string) *metaTerm {
	if t := ts.byID[id]; t != nil {
		return t
	}
	return &metaTerm{sum: fnvBasis}
}

// keep remembers t while fewer than maxMetaTerminals are followed; false
// for one past that, which is forgotten (its held output must go out now).
func (ts *metaTerminals) keep(id string, t *metaTerm) bool {
	if ts.byID[id] == t {
		return true
	}
	if ts.byID == nil {
		ts.byID = map[string]*metaTerm{}
	}
	if len(ts.byID) >= maxMetaTerminals {
		return false
	}
	ts.byID[id] = t
	return true
}

const (
	fnvBasis = 14695981039346656037
	fnvPrime = 1099511628211
)

// fnv continues an FNV-1a hash over b (hash/fnv without its allocation
// and interface, for a hash kept as a number).
func fnv(h uint64, b []byte) uint64 {
	for _, c := range b {
		h = (h ^ uint64(c)) * fnvPrime
	}
	return h
}
