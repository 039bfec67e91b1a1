package history

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestSites(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	t2 := time.Date(2026, 11, 12, 9, 0, 0, 0, time.UTC)
	for _, r := range []struct {
		site string
		at   time.Time
	}{{"Example.COM.", t2}, {"example.com", t1}, {"github.com", t1}, {"", t1}} {
		if err := s.RecordSite(r.site, r.at); err != nil {
			t.Fatal(err)
		}
	}
	v, ok, err := s.Site("EXAMPLE.com")
	if err != nil || !ok || v.Count != 2 || !v.First.Equal(t2) || !v.Last.Equal(t2) {
		t.Errorf("Site = %+v, %v, %v", v, ok, err)
	}
	if _, ok, _ := s.Site("example.org"); ok {
		t.Error("never opened, but found")
	}
	all, err := s.Sites()
	if err != nil || strings.Join(all, " ") != "example.com github.com" {
		t.Errorf("Sites = %v, %v", all, err)
	}
}

func TestSitesBound(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := sites{Version: Version, Sites: map[string]*Visit{}}
	for i := range MaxSites {
		at := t0.Add(time.Duration(i) * time.Minute)
		f.Sites[fmt.Sprintf("s%d.com", i)] = &Visit{Count: 1, First: at, Last: at}
	}
	if err := writeFile(s.path(sitesFile), &f); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordSite("new.com", t0.Add(time.Hour*100)); err != nil {
		t.Fatal(err)
	}
	all, _ := s.Sites()
	if len(all) != MaxSites {
		t.Errorf("%d sites", len(all))
	}
	if _, ok, _ := s.Site("s0.com"); ok {
		t.Error("the least recently opened site was kept")
	}
}

func TestDescribe(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	nov12 := time.Date(2026, 11, 12, 8, 0, 0, 0, time.UTC)
	tests := []struct {
		v    Visit
		ok   bool
		want string
	}{
		{Visit{}, false, "first time you open this site"},
		{Visit{Count: 1, Last: nov12}, true, "opened once, last on 12 Nov"},
		{Visit{Count: 2, Last: nov12}, true, "opened twice, last on 12 Nov"},
		{Visit{Count: 4, Last: nov12}, true, "opened 4 times, last on 12 Nov"},
		{Visit{Count: 4, Last: nov12.AddDate(-1, 0, 0)}, true, "opened 4 times, last on 12 Nov 2025"},
	}
	for _, tt := range tests {
		if got := Describe(tt.v, tt.ok, now); got != tt.want {
			t.Errorf("Describe(%+v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
