package schema

import (
	"encoding/json"
)

// A requested schema is read in one pass (readJSON) into nodes that keep
// the agent's member order, each string decoded once and each number as
// written; the parser then only looks at nodes. This is hand-written
// because encoding/json cannot do it: it decodes objects into maps, which
// lose the order, and a keyword's Go type must be chosen before decoding
// while here it may be several shapes (type is a string or a list, oneOf
// is options or a nullable pair, exclusiveMinimum a number or a boolean),
// so the parser used to decode each keyword a second time.

// node is one JSON value of the schema.
type node struct {
	kind  byte     // '{' object, '[' array, '"' string, '0' number, 't' true, 'f' false, 'n' null
	raw   []byte   // the value as written (numbers are read from it)
	str   string   // a string's value, as encoding/json decodes it
	keys  []string // an object's member names, in order, repeats included
	elems []*node  // an object's member values (one per key) or an array's elements
}

// get is the value of member k of an object (the last one, as encoding/json
// keeps when a name repeats), or nil.
func (n *node) get(k string) *node {
	if n == nil {
		return nil
	}
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i] == k {
			return n.elems[i]
		}
	}
	return nil
}

func (n *node) has(k string) bool { return n.get(k) != nil }

// object reports whether n is a JSON object (null is not).
func (n *node) object() bool { return n != nil && n.kind == '{' }

// asString reads n as json.Unmarshal into a string does: a string, or null
// for "" (ok false for a missing value or any other type).
func (n *node) asString() (string, bool) {
	switch {
	case n == nil:
		return "", false
	case n.kind == '"':
		return n.str, true
	}
	return "", n.kind == 'n'
}

// asBool reads n as json.Unmarshal into a bool does: null is false.
func (n *node) asBool() (v, ok bool) {
	if n == nil {
		return false, false
	}
	return n.kind == 't', n.kind == 't' || n.kind == 'f' || n.kind == 'n'
}

// isTrue reports whether n is the literal true.
func (n *node) isTrue() bool { return n != nil && n.kind == 't' }

// strings reads n as json.Unmarshal into a []string does: null is an empty
// list, a null entry is "".
func (n *node) strings() ([]string, bool) {
	switch {
	case n == nil:
		return nil, false
	case n.kind == 'n':
		return nil, true
	case n.kind != '[':
		return nil, false
	}
	out := make([]string, len(n.elems))
	for i, e := range n.elems {
		s, ok := e.asString()
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// list reads n as json.Unmarshal into a []json.RawMessage does: null is an
// empty list.
func (n *node) list() ([]*node, bool) {
	if n == nil || n.kind != '[' && n.kind != 'n' {
		return nil, false
	}
	return n.elems, true
}

// value is n as a json.Decoder with UseNumber decodes it into an any.
func (n *node) value() any {
	switch n.kind {
	case '"':
		return n.str
	case '0':
		return json.Number(n.raw)
	case 't', 'f':
		return n.kind == 't'
	case '[':
		out := make([]any, len(n.elems))
		for i, e := range n.elems {
			out[i] = e.value()
		}
		return out
	case '{':
		out := make(map[string]any, len(n.keys))
		for i, k := range n.keys {
			out[k] = n.elems[i].value()
		}
		return out
	}
	return nil
}

// merge is an object with base's members overridden by over's (nil: none),
// without over's member drop.
func merge(base, over *node, drop string) *node {
	out := &node{kind: '{', keys: make([]string, 0, len(base.keys)+len(over.keysOrNil())), elems: make([]*node, 0, len(base.keys)+len(over.keysOrNil()))}
	out.keys = append(out.keys, base.keys...)
	out.elems = append(out.elems, base.elems...)
	if over != nil {
		for i, k := range over.keys {
			if k != drop {
				out.keys, out.elems = append(out.keys, k), append(out.elems, over.elems[i])
			}
		}
	}
	return out
}

func (n *node) keysOrNil() []string {
	if n == nil {
		return nil
	}
	return n.keys
}

// without is a copy of object n without member k.
func (n *node) without(k string) *node {
	out := &node{kind: '{'}
	for i, key := range n.keys {
		if key != k {
			out.keys, out.elems = append(out.keys, key), append(out.elems, n.elems[i])
		}
	}
	return out
}

// maxDepth is encoding/json's limit on nesting: deeper is not valid JSON.
const maxDepth = 10000

// reader is the one pass: it validates by the grammar encoding/json's
// scanner accepts while it builds the nodes.
type reader struct {
	b       []byte
	i       int
	depth   int
	slab    []node // nodes are allocated a batch at a time
	batches int
	keys    []string
	elems   []*node
}

// readJSON reads b, which must hold one JSON value and white space.
func readJSON(b []byte) (*node, bool) {
	r := reader{b: b}
	n, ok := r.value()
	if !ok {
		return nil, false
	}
	r.space()
	return n, r.i == len(b)
}

func (r *reader) newNode(kind byte, start int) *node {
	if len(r.slab) == 0 {
		// The first batch fits a small schema (a node takes 12 bytes of
		// JSON or more, as schemas are written); then batches of 32,
		// doubling after the first four, up to 1024.
		n := 32 << min(max(r.batches-4, 0), 5)
		if r.batches == 0 {
			n = min(max(len(r.b)/12, 8), 32)
		}
		r.batches++
		r.slab = make([]node, n)
	}
	n := &r.slab[0]
	r.slab = r.slab[1:]
	n.kind, n.raw = kind, r.b[start:r.i]
	return n
}

func (r *reader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

func (r *reader) literal(lit string) bool {
	if len(r.b)-r.i >= len(lit) && string(r.b[r.i:r.i+len(lit)]) == lit {
		r.i += len(lit)
		return true
	}
	return false
}

func (r *reader) value() (*node, bool) {
	r.space()
	if r.i >= len(r.b) {
		return nil, false
	}
	start := r.i
	switch c := r.b[r.i]; c {
	case '"':
		s, ok := r.str()
		if !ok {
			return nil, false
		}
		n := r.newNode('"', start)
		n.str = s
		return n, true
	case '{', '[':
		return r.container(c)
	case 't', 'f', 'n':
		lit := "null"
		if c == 't' {
			lit = "true"
		} else if c == 'f' {
			lit = "false"
		}
		if !r.literal(lit) {
			return nil, false
		}
		return r.newNode(c, start), true
	}
	if !r.number() {
		return nil, false
	}
	return r.newNode('0', start), true
}

// container reads an object or an array; its members are gathered on the
// reader's stacks and copied out once the container ends.
func (r *reader) container(c byte) (*node, bool) {
	start := r.i
	if r.depth++; r.depth > maxDepth {
		return nil, false
	}
	closing := byte('}')
	if c == '[' {
		closing = ']'
	}
	base, ebase := len(r.keys), len(r.elems)
	r.i++
	r.space()
	if r.i < len(r.b) && r.b[r.i] == closing {
		r.i++
	} else {
		for {
			if c == '{' {
				r.space()
				if r.i >= len(r.b) || r.b[r.i] != '"' {
					return nil, false
				}
				k, ok := r.str()
				if !ok {
					return nil, false
				}
				r.space()
				if r.i >= len(r.b) || r.b[r.i] != ':' {
					return nil, false
				}
				r.i++
				r.keys = append(r.keys, k)
			}
			v, ok := r.value()
			if !ok {
				return nil, false
			}
			r.elems = append(r.elems, v)
			r.space()
			if r.i < len(r.b) && r.b[r.i] == ',' {
				r.i++
				continue
			}
			if r.i < len(r.b) && r.b[r.i] == closing {
				r.i++
				break
			}
			return nil, false
		}
	}
	r.depth--
	n := r.newNode(c, start)
	if c == '{' {
		n.keys = append([]string(nil), r.keys[base:]...)
		r.keys = r.keys[:base]
	}
	n.elems = append([]*node(nil), r.elems[ebase:]...)
	r.elems = r.elems[:ebase]
	return n, true
}
