package history

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// MaxSites is how many sites are remembered; the least recently opened go
// first.
const MaxSites = 1000

// Visit is what is remembered of one site.
type Visit struct {
	// Count is how many times the user opened it.
	Count int `json:"count"`
	// First and Last are when.
	First time.Time `json:"first"`
	Last  time.Time `json:"last"`
}

type sites struct {
	Version int               `json:"version"`
	Sites   map[string]*Visit `json:"sites,omitempty"`
}

func (s *sites) version() int { return s.Version }

// normSite lower-cases a registrable domain and drops a trailing dot.
func normSite(site string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(site)), ".")
}

// RecordSite counts one opening of site (a registrable domain, as the
// consent screen shows it), at the given time. Call it only when the user
// opened the URL from the consent screen.
func (s *Store) RecordSite(site string, at time.Time) error {
	site = normSite(site)
	if s == nil || site == "" {
		return nil
	}
	at = at.UTC()
	return update(s, sitesFile, func(f *sites) bool {
		f.Version = Version
		if f.Sites == nil {
			f.Sites = map[string]*Visit{}
		}
		v := f.Sites[site]
		if v == nil {
			v = &Visit{First: at}
			f.Sites[site] = v
		}
		v.Count++
		if at.After(v.Last) {
			v.Last = at
		}
		for len(f.Sites) > MaxSites {
			var oldest string
			for name, v := range f.Sites {
				if oldest == "" || v.Last.Before(f.Sites[oldest].Last) {
					oldest = name
				}
			}
			delete(f.Sites, oldest)
		}
		return true
	})
}

// Site returns what is remembered of site; ok is false for a site never
// opened.
func (s *Store) Site(site string) (v Visit, ok bool, err error) {
	if s == nil {
		return Visit{}, false, nil
	}
	var f sites
	if err := read(s.path(sitesFile), &f); err != nil {
		return Visit{}, false, err
	}
	if p := f.Sites[normSite(site)]; p != nil {
		return *p, true, nil
	}
	return Visit{}, false, nil
}

// Sites returns every remembered site, sorted, for the caller's lookalike
// check: a host whose skeleton matches one of the user's own sites, but
// which is not that site, is a high-severity lookalike.
func (s *Store) Sites() ([]string, error) {
	if s == nil {
		return nil, nil
	}
	var f sites
	if err := read(s.path(sitesFile), &f); err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(f.Sites)), nil
}

// Describe is the consent screen's line about a site: "first time you
// open this site", or "opened 4 times, last on 12 Nov" (with the year when
// it is not now's year), in now's location.
func Describe(v Visit, ok bool, now time.Time) string {
	if !ok || v.Count == 0 {
		return "first time you open this site"
	}
	last := v.Last.In(now.Location())
	day := last.Format("2 Jan")
	if last.Year() != now.Year() {
		day = last.Format("2 Jan 2006")
	}
	times := "once"
	if v.Count == 2 {
		times = "twice"
	} else if v.Count > 2 {
		times = fmt.Sprintf("%d times", v.Count)
	}
	return fmt.Sprintf("opened %s, last on %s", times, day)
}
