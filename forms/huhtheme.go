package forms

import (
	"sync"

	"charm.land/huh/v2"
)

// cachedTheme builds each huh style set once. huh asks its theme for the
// styles on every option it draws, and building them allocates a whole
// style set: a 5,000-option list took most of a second per frame without
// this cache. One cachedTheme is shared by the forms built with the same
// theme (see stylesFor), hence the lock.
type cachedTheme struct {
	base   huh.Theme
	mu     sync.Mutex
	styles [2]*huh.Styles // [light, dark]
}

func cacheTheme(t huh.Theme) huh.Theme { return &cachedTheme{base: t} }

// Theme implements huh.Theme.
func (c *cachedTheme) Theme(isDark bool) *huh.Styles {
	i := 0
	if isDark {
		i = 1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.styles[i] == nil {
		c.styles[i] = c.base.Theme(isDark)
	}
	return c.styles[i]
}
