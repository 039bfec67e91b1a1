package cmd

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/config"
	"github.com/elicit-dev/elicit/internal/history"
	"github.com/elicit-dev/elicit/question/urlcheck"
)

// Issue 31: the well-known domains of a session (the --top-domains files',
// the config's top_domains, the user's own sites from history) make one
// analyzer, handed to the agent's connection; nothing is left in package
// state for anything else in the process.
func TestSetupAnalyzerHoldsEveryTopDomain(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	h, err := history.Open(filepath.Join(state, "elicit"))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.RecordSite("mysite-portal.example", time.Now()); err != nil {
		t.Fatal(err)
	}
	file, err := config.Parse([]byte(`top_domains = ["acme-intranet.corp"]`), filepath.Join(t.TempDir(), "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := newSetup(sessionRequest{}, file, []string{"acme-payments.example"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	for _, lookalike := range []string{"https://acrne-payments.example/", "https://acrne-intranet.corp/", "https://rnysite-portal.example/"} {
		if !st.urls.Analyze(lookalike).Has(urlcheck.CodeConfusable) {
			t.Errorf("%s: no lookalike warning from the session's analyzer", lookalike)
		}
		if urlcheck.Analyze(lookalike).Has(urlcheck.CodeConfusable) {
			t.Errorf("%s: the package's own list was changed", lookalike)
		}
	}
}
