package forms

import "charm.land/huh/v2"

// cachedTheme builds each huh style set once. huh asks its theme for the
// styles on every option it draws, and building them allocates a whole
// style set: a 5,000-option list took most of a second per frame without
// this cache.
type cachedTheme struct {
	base   huh.Theme
	styles [2]*huh.Styles // [light, dark]
}

func cacheTheme(t huh.Theme) huh.Theme { return &cachedTheme{base: t} }

// Theme implements huh.Theme.
func (c *cachedTheme) Theme(isDark bool) *huh.Styles {
	i := 0
	if isDark {
		i = 1
	}
	if c.styles[i] == nil {
		c.styles[i] = c.base.Theme(isDark)
	}
	return c.styles[i]
}
