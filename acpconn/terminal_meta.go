package acpconn

import (
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

// metaWire is an update's _meta as the extension reads it, decoded in the
// update's one pass (decodeWire): its members typed, all others skipped
// without a second look (Claude Code's toolResponse can hold a command's
// whole output). A member of another shape fails the pass, which leaves
// the update to the SDK's path, where metaOf reads the same members
// leniently: the extension never makes an update refused.
type metaWire struct {
	Info *struct {
		ID string `json:"terminal_id"`
	} `json:"terminal_info"`
	Output     *dataWire `json:"terminal_output"`
	Delta      *dataWire `json:"terminal_output_delta"`
	Exit       *exitWire `json:"terminal_exit"`
	ClaudeCode *struct {
		ToolResponse *elapsedWire `json:"toolResponse"`
	} `json:"claudeCode"`
}

// meta is what the extension says; nil when nothing.
func (v *metaWire) meta() *termMeta {
	if v == nil {
		return nil
	}
	m := &termMeta{}
	if v.Info != nil {
		m.info = v.Info.ID
	}
	m.output, m.delta = v.Output.data(), v.Delta.data()
	if x := v.Exit; x != nil {
		m.exit = &termExit{id: x.ID, signal: x.Signal}
		if c := x.Code; c != nil && *c == math.Trunc(*c) && math.Abs(*c) < 1<<31 {
			code := int(*c)
			m.exit.code = &code
		}
	}
	if cc := v.ClaudeCode; cc != nil && cc.ToolResponse != nil {
		if e := cc.ToolResponse.Elapsed; e != nil && *e >= 0 && *e < 1e7 {
			m.elapsed = time.Duration(*e * float64(time.Second)).Round(time.Millisecond)
		}
	}
	if *m == (termMeta{}) {
		return nil
	}
	return m
}

type dataWire struct {
	ID   string  `json:"terminal_id"`
	Data *string `json:"data"`
}

func (d *dataWire) data() *termData {
	if d == nil || d.Data == nil {
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

// metaOf reads the extension from an update's raw JSON, on the SDK's path
// (which keeps _meta as a map): as the one pass reads it when that decodes
// (so both paths agree), else member by member, each one of another shape
// ignored.
func metaOf(update json.RawMessage) *termMeta {
	var strict struct {
		Meta *metaWire `json:"_meta"`
	}
	if json.Unmarshal(update, &strict) == nil {
		return strict.Meta.meta()
	}
	var raw struct {
		Meta *struct {
			Info       json.RawMessage `json:"terminal_info"`
			Output     json.RawMessage `json:"terminal_output"`
			Delta      json.RawMessage `json:"terminal_output_delta"`
			Exit       json.RawMessage `json:"terminal_exit"`
			ClaudeCode json.RawMessage `json:"claudeCode"`
		} `json:"_meta"`
	}
	if json.Unmarshal(update, &raw) != nil || raw.Meta == nil {
		return nil
	}
	var v metaWire
	r := raw.Meta
	lenientInto(r.Info, &v.Info)
	lenientInto(r.Output, &v.Output)
	lenientInto(r.Delta, &v.Delta)
	lenientInto(r.Exit, &v.Exit)
	if r.ClaudeCode != nil {
		var cc struct {
			ToolResponse json.RawMessage `json:"toolResponse"`
		}
		if json.Unmarshal(r.ClaudeCode, &cc) == nil {
			var e *elapsedWire
			if lenientInto(cc.ToolResponse, &e); e != nil {
				v.ClaudeCode = &struct {
					ToolResponse *elapsedWire `json:"toolResponse"`
				}{e}
			}
		}
	}
	return v.meta()
}

// lenientInto decodes b into *dst when it has that shape, else leaves
// *dst alone.
func lenientInto[T any](b json.RawMessage, dst **T) {
	var v *T
	if b != nil && json.Unmarshal(b, &v) == nil {
		*dst = v
	}
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
