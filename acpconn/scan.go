package acpconn

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/internal/jsonlex"
)

// frame is what the one pass over an inbound line finds at its top level:
// everything the gate and the throttled reader need, so neither decodes
// the line again. The SDK still decodes every line into its own envelope
// (params as json.RawMessage) before the handler sees it: that decode is
// inside acp.Connection, which has no hook to hand it a line already
// read, so it cannot be removed without leaving the SDK. The handler then
// decodes params at most once (see handler.go).
type frame struct {
	id     json.RawMessage // the id's exact bytes; nil when absent or null
	method string
	result json.RawMessage // the result's bytes, when there is one

	hasParams, hasResult, hasError bool
}

// wireEnvelope is the SDK's envelope (its anyMessage): a line decodes into
// it exactly when the SDK will decode the line, and the fallback reads
// lines the scanner leaves to encoding/json with it.
type wireEnvelope struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data,omitempty"`
	} `json:"error,omitempty"`
}

// scanFrame reads one line as the SDK's envelope decode will: err is
// non-nil exactly when that decode fails, and is then encoding/json's own
// error. Lines as agents write them take one hand-written pass (below);
// anything unusual (escapes or other letter cases in member names, a
// non-null error member, a member of the wrong type, nesting deeper than
// maxScanDepth, invalid JSON) is decoded by encoding/json instead, so the
// answer is always the SDK's.
func scanFrame(line []byte) (frame, error) {
	if f, ok := fastFrame(line); ok {
		return f, nil
	}
	var env wireEnvelope
	if err := json.Unmarshal(line, &env); err != nil {
		return frame{}, err
	}
	f := frame{method: env.Method, result: env.Result,
		hasParams: env.Params != nil, hasResult: env.Result != nil, hasError: env.Error != nil}
	if env.ID != nil {
		f.id = *env.ID
	}
	return f, nil
}

// maxScanDepth bounds the nesting the hand-written pass follows; deeper
// lines go to encoding/json, which has its own limit.
const maxScanDepth = 64

// envelopeKeys are the SDK envelope's member names: another spelling of
// one (encoding/json matches names without regard to case) is left to
// encoding/json.
var envelopeKeys = [...]string{"jsonrpc", "id", "method", "params", "result", "error"}

// fastFrame is the hand-written pass: encoding/json can neither read a few
// top-level members without decoding all of them through reflection nor
// validate in the same pass, and its Decoder.Token allocates per token.
// It validates the whole line as encoding/json's scanner does and reports
// ok false for anything it leaves to encoding/json.
func fastFrame(b []byte) (f frame, ok bool) {
	s := scanner{b: b}
	s.space()
	if !s.at('{') {
		return f, false
	}
	s.i++
	s.space()
	if s.at('}') {
		s.i++
		return f, s.end()
	}
	for {
		s.space()
		key, esc, good := s.str()
		if !good || esc {
			return f, false
		}
		s.space()
		if !s.at(':') {
			return f, false
		}
		s.i++
		s.space()
		start := s.i
		switch string(key) {
		case "id":
			if !s.value(0) {
				return f, false
			}
			if raw := b[start:s.i]; string(raw) == "null" {
				f.id = nil
			} else {
				f.id = raw
			}
		case "method", "jsonrpc":
			if s.literal("null") {
				break // null leaves a string as it was
			}
			v, vesc, good := s.str()
			if !good {
				return f, false
			}
			if key[0] == 'm' {
				if vesc || !utf8.Valid(v) {
					if f.method, good = unquote(b[start:s.i]); !good {
						return f, false
					}
				} else {
					f.method = methodName(v)
				}
			}
		case "params", "result":
			if !s.value(0) {
				return f, false
			}
			if key[0] == 'p' {
				f.hasParams = true
			} else {
				f.result, f.hasResult = b[start:s.i], true
			}
		case "error":
			if !s.literal("null") {
				return f, false // an error object: encoding/json checks its members
			}
		default:
			for _, k := range envelopeKeys {
				if bytes.EqualFold(key, []byte(k)) {
					return f, false
				}
			}
			if !s.value(0) {
				return f, false
			}
		}
		s.space()
		switch {
		case s.at(','):
			s.i++
		case s.at('}'):
			s.i++
			return f, s.end()
		default:
			return f, false
		}
	}
}

// unquote is a JSON string's value as encoding/json reads it (escapes,
// and invalid UTF-8 made U+FFFD).
func unquote(raw []byte) (string, bool) {
	if v, ok := jsonlex.Unquote(raw); ok {
		return v, true
	}
	var v string // what the fast path refuses, encoding/json decides
	err := json.Unmarshal(raw, &v)
	return v, err == nil
}

// methodName is the method as a string, without allocating for the
// methods agents send all the time.
func methodName(b []byte) string {
	switch string(b) {
	case "session/update":
		return "session/update"
	case "elicitation/create":
		return "elicitation/create"
	case "elicitation/complete":
		return "elicitation/complete"
	case "session/request_permission":
		return "session/request_permission"
	case "$/cancel_request":
		return "$/cancel_request"
	}
	return string(b)
}

// scanner walks JSON text, validating it by the grammar encoding/json's
// scanner accepts.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) at(c byte) bool { return s.i < len(s.b) && s.b[s.i] == c }

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// end reports whether only white space is left.
func (s *scanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

// literal consumes lit (true, false, null) when it comes next.
func (s *scanner) literal(lit string) bool {
	if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
		s.i += len(lit)
		return true
	}
	return false
}

// str consumes a string and returns its content as written (escapes
// undone only by the caller) and whether it has escapes.
func (s *scanner) str() (content []byte, esc, ok bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false, false
	}
	start := s.i
	end, esc, ok := jsonlex.String(s.b, start)
	if !ok {
		return nil, false, false
	}
	s.i = end
	return s.b[start+1 : end-1], esc, true
}

// number consumes -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() bool {
	end, ok := jsonlex.Number(s.b, s.i)
	if ok {
		s.i = end
	}
	return ok
}

// value consumes one JSON value (white space before it included).
func (s *scanner) value(depth int) bool {
	s.space()
	if s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; c {
	case '"':
		_, _, ok := s.str()
		return ok
	case '{', '[':
		if depth >= maxScanDepth {
			return false
		}
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		s.i++
		s.space()
		if s.at(closing) {
			s.i++
			return true
		}
		for {
			if c == '{' {
				s.space()
				if _, _, ok := s.str(); !ok {
					return false
				}
				s.space()
				if !s.at(':') {
					return false
				}
				s.i++
			}
			if !s.value(depth + 1) {
				return false
			}
			s.space()
			switch {
			case s.at(','):
				s.i++
			case s.at(closing):
				s.i++
				return true
			default:
				return false
			}
		}
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	}
	return s.number()
}
