package history

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRunCLI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, agent := range []string{"claude", "gemini"} {
		if err := s.RememberAnswers(agent, "fp", map[string]json.RawMessage{"k": json.RawMessage(`"v"`)}, isSecret); err != nil {
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
		{nil, 0, []string{"claude", "1 forms", "1 suggestions", "gemini", "example.com", "opened once"}, nil},
		{[]string{"forget", "claude"}, 0, []string{`forgot the answers given to "claude"`}, nil},
		{[]string{"list"}, 0, []string{"gemini", "example.com"}, []string{"claude"}},
		{[]string{"forget", "claude"}, 0, []string{`nothing remembered for "claude"`}, nil},
		{[]string{"clear"}, 0, []string{"cleared"}, nil},
		{[]string{"list"}, 0, []string{"no remembered answers", "no remembered sites"}, nil},
		{[]string{"forget"}, 2, nil, nil},
		{[]string{"purge"}, 2, nil, nil},
	}
	for _, st := range steps {
		var out, errb bytes.Buffer
		code := RunCLI(st.args, &out, &errb, dir)
		if code != st.code {
			t.Errorf("%v: exit %d, want %d; stderr %s", st.args, code, st.code, errb.String())
		}
		for _, w := range st.out {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: output lacks %q:\n%s", st.args, w, out.String())
			}
		}
		for _, w := range st.missing {
			if strings.Contains(out.String(), w) {
				t.Errorf("%v: output has %q:\n%s", st.args, w, out.String())
			}
		}
	}
	// A damaged file: list fails, saying so; clear recovers.
	os.WriteFile(filepath.Join(dir, answersFile), []byte("nonsense"), 0o600)
	var out, errb bytes.Buffer
	if code := RunCLI([]string{"list"}, &out, &errb, dir); code != 1 || !strings.Contains(errb.String(), "damaged") {
		t.Errorf("list of a damaged file: %d %s", code, errb.String())
	}
	if code := RunCLI([]string{"clear"}, &out, &errb, dir); code != 0 {
		t.Errorf("clear of a damaged file: %d", code)
	}
}
