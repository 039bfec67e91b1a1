package fullscreen

// renderCache holds one rendered piece of the transcript (a block, a
// streaming tail, a small entry) for one width and one style.
type renderCache struct {
	lines   []string
	width   int
	epoch   uint64 // the transcript's style epoch it was rendered in
	version uint64 // what it was rendered from, where that changes (a tail)
	used    uint64 // the last view that showed it
	live    bool   // listed in transcript.live
	cheap   bool   // a plain-text stand-in for the markdown render
	// slot is where a block holds this cache: sweep empties it, so a
	// block out of sight keeps no render, not even an empty one.
	slot **renderCache
}

// valid reports whether c holds a render for width in epoch.
func (c *renderCache) valid(width int, epoch uint64) bool {
	return c.lines != nil && c.width == width && c.epoch == epoch
}

// cacheSlack is how many renders beyond those the last view used the
// transcript keeps before it drops the unused ones.
const cacheSlack = 256

// store records lines as c's render for width and marks c used by this
// view; renders are dropped again by sweep once out of sight, so memory
// follows the text, not its rendering.
func (t *transcript) store(c *renderCache, lines []string, width int, version uint64) []string {
	c.lines, c.width, c.epoch, c.version, c.cheap = lines, width, t.epoch, version, false
	t.touch(c)
	return lines
}

// storeCheap is store for a plain-text stand-in (see fastBytes).
func (t *transcript) storeCheap(c *renderCache, lines []string, width int, version uint64) []string {
	t.store(c, lines, width, version)
	c.cheap = true
	return lines
}

// touch marks c as shown by the current view, and lists it for sweep.
func (t *transcript) touch(c *renderCache) {
	if c.used != t.gen {
		c.used = t.gen
		t.touched++
	}
	if !c.live {
		c.live = true
		t.live = append(t.live, c)
	}
}

// drop forgets c's render (c stays listed until the next sweep).
func (c *renderCache) drop() { c.lines = nil }

// sweep drops the renders the last view did not use, once there are many
// more of them than it used.
func (t *transcript) sweep() {
	if len(t.live) <= 2*t.touched+cacheSlack {
		return
	}
	kept := t.live[:0]
	for _, c := range t.live {
		if c.used == t.gen {
			kept = append(kept, c)
			continue
		}
		c.lines, c.live = nil, false
		if c.slot != nil {
			*c.slot = nil
		}
	}
	clear(t.live[len(kept):])
	t.live = kept
}
