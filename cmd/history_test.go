package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit-dev/elicit/internal/history"
)

func TestHistoryCommand(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	dir := filepath.Join(state, "elicit")
	s, err := history.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	never := func(string) bool { return false }
	for _, agent := range []string{"claude", "gemini"} {
		if err := s.RememberAnswers(agent, "fp", map[string]json.RawMessage{"k": json.RawMessage(`"v"`)}, never); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.RecordSite("example.com", time.Now()); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		args    []string
		code    int
		out     []string
		missing []string
	}{
		{[]string{"history"}, 0, []string{"claude", "1 forms", "1 suggestions", "gemini", "example.com", "opened once"}, nil},
		{[]string{"history", "forget", "claude"}, 0, []string{`forgot the answers given to "claude"`}, nil},
		{[]string{"history", "list"}, 0, []string{"gemini", "example.com"}, []string{"claude"}},
		{[]string{"history", "forget", "claude"}, 0, []string{`nothing remembered for "claude"`}, nil},
		{[]string{"history", "clear"}, 0, []string{"cleared"}, nil},
		{[]string{"history", "list"}, 0, []string{"no remembered answers", "no remembered sites"}, nil},
		{[]string{"history", "forget"}, 2, nil, nil},
		{[]string{"history", "purge"}, 2, nil, nil},
	}
	for _, st := range steps {
		r := runTree(t, "", st.args...)
		if r.code != st.code {
			t.Errorf("%v: %v", st.args, r)
		}
		for _, w := range st.out {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%v: output lacks %q:\n%s", st.args, w, r.stdout)
			}
		}
		for _, w := range st.missing {
			if strings.Contains(r.stdout, w) {
				t.Errorf("%v: output has %q:\n%s", st.args, w, r.stdout)
			}
		}
	}
	// A damaged file: list fails, saying so; clear recovers.
	os.WriteFile(filepath.Join(dir, "answers.json"), []byte("nonsense"), 0o600)
	if r := runTree(t, "", "history", "list"); r.code != 1 || !strings.Contains(r.stderr, "damaged") {
		t.Errorf("list of a damaged file: %v", r)
	}
	if r := runTree(t, "", "history", "clear"); r.code != 0 {
		t.Errorf("clear of a damaged file: %v", r)
	}
}
