package attach

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/ahp"
	qn "github.com/elicit-dev/elicit/question"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// Issue 31: a host's request over the caps every source shares (here a
// message one byte over question.MaxMessageBytes) is never shown: it is
// cancelled, with a note saying why.
func TestRequestOverTheCapsCancelled(t *testing.T) {
	h, url := host(t)
	a := newScreen(t, url, "alice")
	h.Request(ahp.Request{ID: "big", Message: strings.Repeat("x", qn.MaxMessageBytes+1), Questions: twoFields.Questions})
	a.until(t, "the note", func(*Model) bool { return strings.Contains(a.text(), "more than a question may carry") })
	if hasForm(a.m) {
		t.Error("the request was shown")
	}
	if c := completion(t, h); c.Response != qn.Cancel {
		t.Fatalf("completion %+v", c)
	}
}

// A host's URL is analyzed by Options.URLs: the user's well-known domains.
func TestHostsURLAnalyzedByOptionsURLs(t *testing.T) {
	h, url := host(t)
	c := client(t, url, "alice")
	a := &screen{m: New(Options{Conn: c, Title: "demo", Grace: -1, Width: 100, Height: 40, NoColor: true,
		URLs: urlcheck.NewAnalyzer("acme-intranet.corp")}), c: c}
	h.Request(ahp.Request{ID: "u", Message: "Sign in", URL: "https://acrne-intranet.corp/login"})
	a.until(t, "the consent screen", func(m *Model) bool { return m.cur != nil && m.cur.consent != nil })
	if !a.m.cur.consent.Report().Has(urlcheck.CodeConfusable) {
		t.Errorf("no lookalike warning: %+v", a.m.cur.consent.Report().Warnings)
	}
}
