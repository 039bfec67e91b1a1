package schema

import (
	"bytes"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// A JSON Schema's $ref may point anywhere in the schema, itself included.
// A validator (the SDK's, jsonschema-go) recurses along $ref, allOf,
// anyOf, oneOf, not, if/then/else and dependentSchemas on one value, so a
// loop of those never ends: Go has no recovery from the stack overflow
// that follows. A loop that goes into the value first (properties, items)
// is a recursive type, which a finite value bounds. CheckRefs walks what a
// validator would, with a visited set and bounds, before anything
// validates against the schema.

// Bounds of CheckRefs.
const (
	maxSubschemas = 10000  // subschemas a schema may hold
	maxChain      = 64     // applicators in a row on one value
	maxBranches   = 100000 // ways through the applicators on one value
)

// applicators hold subschemas that apply to the value itself; descenders
// hold subschemas that apply to its members or items; containers hold
// subschemas only $ref reaches.
var (
	applicators = []string{"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies"}
	descenders  = []string{"properties", "patternProperties", "additionalProperties", "propertyNames", "items", "prefixItems",
		"additionalItems", "contains", "unevaluatedItems", "unevaluatedProperties"}
	containers = []string{"$defs", "definitions"}
)

// CheckRefs refuses, with a *SchemaError, a JSON Schema that a validator
// would walk without end or without bound: a $ref loop on one value, a
// $ref it cannot follow (not to a place in the schema), $dynamicRef or
// $recursiveRef, more than 64 applicators in a row, more than 10,000
// subschemas, or too many ways through the applicators on one value.
// Its walk has a visited set and those bounds.
func CheckRefs(raw []byte) error {
	top, ok := readJSON(raw)
	if !ok {
		return &SchemaError{"", "not valid JSON"}
	}
	return checkRefs(raw, top)
}

// checkRefs is CheckRefs of raw, read as top. A schema without a
// reference (nothing ends in ef" even escaped) needs no walk.
func checkRefs(raw []byte, top *node) error {
	if !bytes.Contains(raw, []byte(`ef"`)) && !bytes.Contains(raw, []byte(`\u`)) {
		return nil
	}
	w := &refWalk{resources: map[string]*node{}, base: map[*node]string{}, state: map[*node]byte{}, ways: map[*node]int{}}
	if err := w.index(top); err != nil {
		return err
	}
	w.todo = []*node{top}
	for len(w.todo) > 0 {
		n := w.todo[len(w.todo)-1]
		w.todo = w.todo[:len(w.todo)-1]
		if _, err := w.apply(n, 0); err != nil {
			return err
		}
	}
	return nil
}

// refWalk is one CheckRefs.
type refWalk struct {
	resources map[string]*node // base URI (no fragment) -> its root
	anchors   map[string]*node // base URI + "#" + $anchor -> subschema
	base      map[*node]string // subschema -> the base URI its $ref resolves against
	state     map[*node]byte   // 1 on the applicator path being walked, 2 walked
	ways      map[*node]int    // ways through the applicators from a walked subschema
	todo      []*node          // subschemas reached by going into the value, to walk
	seen      int
}

// index notes every subschema's base URI (its $id, resolved against its
// parent's), the resources and the anchors, without following any $ref.
func (w *refWalk) index(top *node) error {
	type item struct {
		n    *node
		base string
	}
	if w.anchors == nil {
		w.anchors = map[string]*node{}
	}
	stack := []item{{top, ""}}
	w.resources[""] = top
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n, base := it.n, it.base
		if !n.object() {
			continue
		}
		if w.seen++; w.seen > maxSubschemas {
			return &SchemaError{"", fmt.Sprintf("more than %d subschemas", maxSubschemas)}
		}
		if id, ok := n.get("$id").asString(); ok && strings.HasPrefix(id, "#") {
			w.anchors[base+id] = n // draft 7's anchor
		} else if ok && id != "" {
			b, err := resolveURI(base, id)
			if err != nil {
				return &SchemaError{"", fmt.Sprintf("$id %s: %v", quoteShort(id), err)}
			}
			base, _, _ = strings.Cut(b, "#")
			w.resources[base] = n
		}
		w.base[n] = base
		if a, ok := n.get("$anchor").asString(); ok && a != "" {
			w.anchors[base+"#"+a] = n
		}
		for _, k := range [][]string{applicators, descenders, containers} {
			for _, key := range k {
				for _, c := range subschemas(n, key) {
					stack = append(stack, item{c, base})
				}
			}
		}
	}
	return nil
}

// subschemas are the schemas keyword k of n holds: its value, the
// elements of a list, or the members of a map of schemas (a list member
// of dependencies names properties: not a schema).
func subschemas(n *node, k string) []*node {
	v := n.get(k)
	switch {
	case v == nil:
		return nil
	case v.kind == '{' && !schemaMaps[k]:
		return []*node{v}
	case v.kind != '{' && v.kind != '[':
		return nil
	}
	var out []*node
	for _, e := range v.elems {
		if e.object() {
			out = append(out, e)
		}
	}
	return out
}

// schemaMaps are the keywords whose value maps names to schemas.
var schemaMaps = map[string]bool{"properties": true, "patternProperties": true, "dependentSchemas": true, "dependencies": true,
	"$defs": true, "definitions": true}

// apply walks the applicators from n on one value, depth applicators
// deep, and returns the ways through them; what goes into the value is
// queued.
func (w *refWalk) apply(n *node, depth int) (int, error) {
	switch w.state[n] {
	case 1:
		return 0, &SchemaError{"", "$ref loops back to a schema that refers to it without going into the value: a validator would never end"}
	case 2:
		return w.ways[n], nil
	}
	if depth > maxChain {
		return 0, &SchemaError{"", fmt.Sprintf("more than %d $ref, allOf, anyOf or oneOf in a row", maxChain)}
	}
	w.state[n] = 1
	ways := 1
	add := func(c *node) error {
		k, err := w.apply(c, depth+1)
		if ways += k; ways > maxBranches {
			return &SchemaError{"", "too many branches through $ref, allOf, anyOf and oneOf"}
		}
		return err
	}
	for _, k := range []string{"$dynamicRef", "$recursiveRef"} {
		if n.has(k) {
			return 0, &SchemaError{"", fmt.Sprintf("keyword %q is not supported", k)}
		}
	}
	if r := n.get("$ref"); r != nil {
		target, err := w.follow(n, r)
		if err != nil {
			return 0, err
		}
		if err := add(target); err != nil {
			return 0, err
		}
	}
	for _, k := range applicators {
		for _, c := range subschemas(n, k) {
			if err := add(c); err != nil {
				return 0, err
			}
		}
	}
	for _, k := range descenders {
		for _, c := range subschemas(n, k) {
			if w.state[c] == 0 {
				w.todo = append(w.todo, c)
			}
		}
	}
	w.state[n], w.ways[n] = 2, ways
	return ways, nil
}

// follow finds the subschema a $ref points to: a JSON pointer or an
// anchor in a resource of this schema.
func (w *refWalk) follow(n, r *node) (*node, error) {
	ref, ok := r.asString()
	if !ok || r.kind != '"' {
		return nil, &SchemaError{"", "$ref must be a string"}
	}
	cannot := func(why string) error {
		return &SchemaError{"", fmt.Sprintf("$ref %s cannot be followed: %s", quoteShort(ref), why)}
	}
	abs, err := resolveURI(w.base[n], ref)
	if err != nil {
		return nil, cannot(err.Error())
	}
	base, frag, _ := strings.Cut(abs, "#")
	root := w.resources[base]
	if root == nil {
		return nil, cannot("it points outside the schema")
	}
	if frag == "" {
		return root, nil
	}
	if !strings.HasPrefix(frag, "/") {
		if a := w.anchors[base+"#"+frag]; a != nil {
			return a, nil
		}
		return nil, cannot("no such anchor")
	}
	at := root
	for _, tok := range strings.Split(frag[1:], "/") {
		tok, err := url.PathUnescape(tok)
		if err != nil {
			return nil, cannot("a bad escape")
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch {
		case at == nil:
		case at.kind == '{':
			at = at.get(tok)
		case at.kind == '[':
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(at.elems) {
				at = nil
			} else {
				at = at.elems[i]
			}
		default:
			at = nil
		}
	}
	if !at.object() {
		return nil, cannot("nothing there is a schema object")
	}
	if _, ok := w.base[at]; !ok {
		w.base[at] = base // a schema in a place the index does not go (a vendor keyword)
	}
	return at, nil
}

// resolveURI resolves ref against base; "" is the document's own base.
func resolveURI(base, ref string) (string, error) {
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	if base == "" {
		return r.String(), nil
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	return b.ResolveReference(r).String(), nil
}
