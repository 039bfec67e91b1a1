package acpconn

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// scanChunk reads the commonest update by far, a text chunk, in one
// hand-written pass over its params (the scanner of scan.go): the
// sessionId, and in update the sessionUpdate, messageId and a content of
// type text. It answers only what decodeChunk would answer the same way
// (members spelt exactly, each once, of the plain type) and leaves
// anything else (ok false) to the decoding paths of decodeUpdate.
// Hand-written: encoding/json reaches these three levels down only through
// reflection over every member.
func scanChunk(params json.RawMessage) (ev MessageChunk, sessionID string, ok bool) {
	s := scanner{b: params}
	var kind, text string
	var msgID *string
	var seen [6]bool // sessionId, update, sessionUpdate, messageId, content, type+text
	hasText, hasType := false, false
	good := s.members([]string{"sessionId", "update"}, func(i int) bool {
		if seen[i] {
			return false
		}
		seen[i] = true
		if i == 0 {
			v, ok := s.plainString()
			sessionID = v
			return ok
		}
		return s.members([]string{"sessionUpdate", "messageId", "content"}, func(j int) bool {
			if seen[2+j] {
				return false
			}
			seen[2+j] = true
			switch j {
			case 0:
				v, ok := s.plainString()
				kind = v
				return ok
			case 1:
				if s.literal("null") {
					return true
				}
				v, ok := s.plainString()
				msgID = &v
				return ok
			}
			var typ string
			ok := s.members([]string{"type", "text"}, func(k int) bool {
				if k == 0 && hasType || k == 1 && hasText {
					return false
				}
				v, ok := s.plainString()
				if k == 0 {
					typ, hasType = v, true
				} else {
					text, hasText = v, true
				}
				return ok
			})
			return ok && typ == "text"
		})
	})
	role, isChunk := chunkRoles[kind]
	if !good || !s.end() || !isChunk || !hasText {
		return ev, "", false
	}
	return MessageChunk{Role: role, Text: sanitize.Text(text), Faithful: sanitize.Faithful(text), MessageID: messageID(msgID)}, sessionID, true
}

// members walks an object whose members named in names are read by each
// (given the name's index; it must consume the value) and whose other
// members are skipped. Any other spelling of a name (encoding/json would
// match it) or an escape in a member's name fails the walk.
func (s *scanner) members(names []string, each func(int) bool) bool {
	s.space()
	if !s.at('{') {
		return false
	}
	s.i++
	s.space()
	if s.at('}') {
		s.i++
		return true
	}
	for {
		s.space()
		key, esc, ok := s.str()
		if !ok || esc {
			return false
		}
		s.space()
		if !s.at(':') {
			return false
		}
		s.i++
		s.space()
		known := -1
		for i, n := range names {
			if string(key) == n {
				known = i
			} else if bytes.EqualFold(key, []byte(n)) {
				return false
			}
		}
		if known >= 0 && !each(known) || known < 0 && !s.value(0) {
			return false
		}
		s.space()
		switch {
		case s.at(','):
			s.i++
		case s.at('}'):
			s.i++
			return true
		default:
			return false
		}
	}
}

// plainString reads a string value (not null, nor any other type) as
// encoding/json decodes it.
func (s *scanner) plainString() (string, bool) {
	start := s.i
	v, esc, ok := s.str()
	switch {
	case !ok:
		return "", false
	case esc || !utf8.Valid(v):
		return unquote(s.b[start:s.i])
	}
	return string(v), true
}
