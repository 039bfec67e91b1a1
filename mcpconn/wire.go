package mcpconn

import (
	"bytes"
	"encoding/json"
	"hash/maphash"

	lru "github.com/hashicorp/golang-lru/v2"
	sjson "github.com/segmentio/encoding/json"

	"github.com/elicit-dev/elicit/question/schema"
)

// The observer reads every message the SDK reads, so it reads them the way
// the SDK does: with segmentio's decoder (the SDK's own, behind its
// internal/json), member names matched exactly, and nothing deeper than
// the SDK's limit. Agreeing with the SDK is what lets the handler find the
// raw schema of the form the SDK decoded; it is also the cheaper decoder,
// and raw parts are not copied unless kept.

// maxDepth is the SDK's limit on a message's nesting: the SDK refuses a
// deeper message whole, and segmentio's decoder recurses once per level,
// so the observer does not decode one either.
const maxDepth = 1000

// decodeFlags read as the SDK's decoder does, without copying raw parts
// (they point into the line, which the tap reuses: copy what is kept).
const decodeFlags = sjson.DontMatchCaseInsensitiveStructFields | sjson.DontCopyRawMessage

// decode reads b, one JSON value, into v; false when b is not that or is
// nested deeper than maxDepth.
func decode(b []byte, v any) bool {
	return !tooDeep(b) && decodeChecked(b, v)
}

// decodeChecked is decode for b that tooDeep already passed (a whole
// message, or a part of one that did).
func decodeChecked(b []byte, v any) bool {
	rest, err := sjson.Parse(b, v, decodeFlags)
	return err == nil && len(bytes.TrimSpace(rest)) == 0
}

// tooDeep reports whether b nests objects and arrays deeper than maxDepth.
// Hand-written as the SDK's internal/json.checkMaxDepth (not exported):
// brackets are counted outside strings.
func tooDeep(b []byte) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			if depth++; depth > maxDepth {
				return true
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return false
}

// schemaKeys remembers, for the last few raw schemas a server sent, the
// canonical text formKey names them by and a private copy of the bytes,
// so a server that sends one schema a thousand times has it decoded once.
// Bounded like the parse cache (schema.Cache): by entries, and a schema
// over schema.MaxCachedBytes is decoded every time.
type schemaKeys struct {
	seed    maphash.Seed
	entries *lru.Cache[uint64, *schemaKey]
}

type schemaKey struct {
	raw   []byte
	canon string
}

func newSchemaKeys() *schemaKeys {
	entries, _ := lru.New[uint64, *schemaKey](schema.DefaultCacheEntries)
	return &schemaKeys{seed: maphash.MakeSeed(), entries: entries}
}

// get returns a copy of raw that stays (the tap's line does not) and its
// canonical text; ok is false when raw is not JSON or has no canonical
// text. raw is part of a message that tooDeep passed.
func (k *schemaKeys) get(raw []byte) (kept []byte, canon string, ok bool) {
	small := len(raw) <= schema.MaxCachedBytes
	var h uint64
	if small {
		h = maphash.Bytes(k.seed, raw)
		if e, hit := k.entries.Get(h); hit && bytes.Equal(e.raw, raw) {
			return e.raw, e.canon, true
		}
	}
	var v any
	if !decodeChecked(raw, &v) {
		return nil, "", false
	}
	if canon, ok = canonicalText(v); !ok {
		return nil, "", false
	}
	kept = bytes.Clone(raw)
	if small {
		k.entries.Add(h, &schemaKey{raw: kept, canon: canon})
	}
	return kept, canon, true
}

// rawOf is b as a json.RawMessage that stays: a copy.
func rawOf(b []byte) json.RawMessage { return bytes.Clone(b) }
