package schema

import (
	"bytes"
	"hash/maphash"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Cache parses requested schemas and remembers the last few by their
// exact bytes, so a peer that sends one schema again and again (an MCP
// server asking the same form a thousand times in one tool call) has it
// parsed once:
//
//	c := schema.NewCache(schema.DefaultCacheEntries)
//	s, err := c.Parse(raw) // the same as ParseSchema(raw)
//
// Parse answers exactly as ParseSchema does, refusals included; only bytes
// that are equal share a result (one changed byte, even a space, is
// parsed anew). What it remembers is bounded: at most its entries, the
// least recently used going first, and none over MaxCachedBytes (a larger
// schema is parsed every time). The Schema it returns is shared by every
// caller that passed the same bytes: read it, never change it (nothing in
// elicit changes a parsed Schema). A Cache is safe for concurrent use.
type Cache struct {
	seed    maphash.Seed
	entries *lru.Cache[uint64, *cached]
}

// DefaultCacheEntries is a source's cache size: a server or an agent
// rarely asks more than a few distinct forms in a session.
const DefaultCacheEntries = 32

// MaxCachedBytes is the largest schema a Cache keeps; with
// DefaultCacheEntries that bounds what one holds to about 2 MiB of schema
// text and its parsed form.
const MaxCachedBytes = 64 << 10

// cached is one parse: the bytes it was made from (a private copy, to tell
// a hash collision from a hit), and what ParseSchema gave.
type cached struct {
	raw []byte
	s   *Schema
	err error
}

// NewCache returns a cache of up to n schemas (n < 1 means 1).
func NewCache(n int) *Cache {
	entries, _ := lru.New[uint64, *cached](max(n, 1)) // errs only for n <= 0
	return &Cache{seed: maphash.MakeSeed(), entries: entries}
}

// Parse is ParseSchema(raw), from the cache when raw was parsed before.
func (c *Cache) Parse(raw []byte) (*Schema, error) {
	if len(raw) > MaxCachedBytes {
		return ParseSchema(raw)
	}
	h := maphash.Bytes(c.seed, raw)
	if e, ok := c.entries.Get(h); ok && bytes.Equal(e.raw, raw) {
		return e.s, e.err
	}
	s, err := ParseSchema(raw)
	c.entries.Add(h, &cached{raw: bytes.Clone(raw), s: s, err: err})
	return s, err
}

// Len is how many schemas the cache holds.
func (c *Cache) Len() int { return c.entries.Len() }
