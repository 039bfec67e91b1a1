package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

func isSecret(k string) bool { return strings.Contains(k, "token") }

func TestFingerprint(t *testing.T) {
	base := []Field{{"name", "string"}, {"age", "integer"}}
	tests := []struct {
		name   string
		fields []Field
		same   bool
	}{
		{"same", []Field{{"name", "string"}, {"age", "integer"}}, true},
		{"order", []Field{{"age", "integer"}, {"name", "string"}}, false},
		{"type", []Field{{"name", "string"}, {"age", "number"}}, false},
		{"key", []Field{{"name", "string"}, {"ages", "integer"}}, false},
		{"more", []Field{{"name", "string"}, {"age", "integer"}, {"x", "boolean"}}, false},
		{"split", []Field{{"namestring", ""}, {"age", "integer"}}, false},
	}
	fp := Fingerprint(base)
	if len(fp) != 24 {
		t.Errorf("fingerprint %q", fp)
	}
	for _, tt := range tests {
		if got := Fingerprint(tt.fields) == fp; got != tt.same {
			t.Errorf("%s: same = %v", tt.name, got)
		}
	}
}

func clockAt(s *Store, t0 time.Time) func(d time.Duration) {
	now := t0
	s.Now = func() time.Time { return now }
	return func(d time.Duration) { now = now.Add(d) }
}

func TestRememberAnswers(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 12, 10, 0, 0, 0, time.UTC)
	clockAt(s, t0)
	values := map[string]json.RawMessage{
		"name":      json.RawMessage(`"Ada"`),
		"big":       json.RawMessage(`12345678901234567890123`),
		"ratio":     json.RawMessage(`1.10`),
		"tags":      json.RawMessage(`[ "a", "b" ]`),
		"api_token": json.RawMessage(`"sk-123"`),
	}
	if err := s.RememberAnswers("claude", "fp1", values, isSecret); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.Answers("claude", "fp1")
	if err != nil || !ok {
		t.Fatalf("Answers = %v, %v", ok, err)
	}
	want := map[string]string{"name": `"Ada"`, "big": `12345678901234567890123`, "ratio": `1.10`, "tags": `["a","b"]`}
	if len(got.Values) != len(want) {
		t.Errorf("values = %s", got.Values)
	}
	for k, v := range want {
		if string(got.Values[k]) != v {
			t.Errorf("%s = %s, want %s (exact JSON)", k, got.Values[k], v)
		}
	}
	if !got.At.Equal(t0) {
		t.Errorf("At = %v", got.At)
	}
	data, _ := os.ReadFile(s.path(answersFile))
	if strings.Contains(string(data), "sk-123") || strings.Contains(string(data), "api_token") {
		t.Errorf("a secret reached the file:\n%s", data)
	}
	if _, ok, _ := s.Answers("claude", "fp2"); ok {
		t.Error("another fingerprint has answers")
	}
	if _, ok, _ := s.Answers("gemini", "fp1"); ok {
		t.Error("another agent has answers")
	}
	if err := s.RememberAnswers("claude", "fp1", values, nil); err == nil {
		t.Error("nil secret rule accepted")
	}
	if err := s.RememberAnswers("claude", "fp1", map[string]json.RawMessage{"x": json.RawMessage(`{bad`)}, isSecret); err == nil {
		t.Error("bad JSON accepted")
	}
	if err := s.RememberAnswers("codex", "fp1", map[string]json.RawMessage{"token": json.RawMessage(`"x"`)}, isSecret); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Answers("codex", "fp1"); ok {
		t.Error("a form of only secrets was remembered")
	}
}

func TestSuggestions(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tick := clockAt(s, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	for _, v := range []string{`"main"`, `"dev"`, `"main"`, `"  "`, `3`, `"release"`} {
		tick(time.Minute)
		if err := s.RememberAnswers("a", "fp", map[string]json.RawMessage{"branch": json.RawMessage(v)}, isSecret); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		agent, prop string
		n           int
		want        string
	}{
		{"a", "branch", 10, "release main dev"},
		{"a", "branch", 2, "release main"},
		{"a", "branch", 0, ""},
		{"a", "other", 5, ""},
		{"b", "branch", 5, ""},
	}
	for _, tt := range tests {
		got, err := s.Suggestions(tt.agent, tt.prop, tt.n)
		if err != nil || strings.Join(got, " ") != tt.want {
			t.Errorf("Suggestions(%s, %s, %d) = %q, %v; want %q", tt.agent, tt.prop, tt.n, got, err, tt.want)
		}
	}
}

func TestBounds(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tick := clockAt(s, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	// Fill the file directly to the bounds, then add one more of each.
	a := answers{Version: Version, Agents: map[string]*agentAnswers{"x": {Forms: map[string]*Remembered{}, Recent: map[string][]recentValue{}}}}
	m := a.Agents["x"]
	for i := range MaxForms {
		m.Forms[fmt.Sprint("fp", i)] = &Remembered{Values: map[string]json.RawMessage{"k": json.RawMessage(`1`)}, At: s.now().Add(time.Duration(i) * time.Second)}
	}
	for i := range MaxSuggestions {
		m.Recent["k"] = append(m.Recent["k"], recentValue{Value: fmt.Sprint("v", i), At: s.now()})
	}
	if err := writeFile(s.path(answersFile), &a); err != nil {
		t.Fatal(err)
	}
	tick(time.Hour)
	if err := s.RememberAnswers("x", "new", map[string]json.RawMessage{"k": json.RawMessage(`"fresh"`)}, isSecret); err != nil {
		t.Fatal(err)
	}
	sum, err := s.List()
	if err != nil || len(sum.Agents) != 1 || sum.Agents[0].Forms != MaxForms || sum.Agents[0].Suggestions != MaxSuggestions {
		t.Fatalf("after one more: %+v, %v", sum, err)
	}
	if _, ok, _ := s.Answers("x", "fp0"); ok {
		t.Error("the oldest form was kept")
	}
	if _, ok, _ := s.Answers("x", "new"); !ok {
		t.Error("the newest form was dropped")
	}
	sug, _ := s.Suggestions("x", "k", 100)
	if sug[0] != "fresh" || sug[len(sug)-1] != fmt.Sprint("v", MaxSuggestions-2) {
		t.Errorf("suggestions = %v", sug)
	}
	if err := s.RememberAnswers("x", "long", map[string]json.RawMessage{"k": json.RawMessage(`"` + strings.Repeat("a", MaxValueBytes) + `"`)}, isSecret); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Answers("x", "long"); ok {
		t.Error("a value over MaxValueBytes was remembered")
	}
}

func TestNilStore(t *testing.T) {
	var s *Store
	if err := s.RememberAnswers("a", "f", map[string]json.RawMessage{"k": json.RawMessage(`1`)}, nil); err != nil {
		t.Error(err)
	}
	if _, ok, err := s.Answers("a", "f"); ok || err != nil {
		t.Error("nil store answered")
	}
	if err := s.RecordSite("a.com", time.Now()); err != nil {
		t.Error(err)
	}
	if v, err := s.Sites(); v != nil || err != nil {
		t.Error("nil store has sites")
	}
	if found, err := s.ForgetAgent("a"); found || err != nil || s.Clear() != nil {
		t.Error("nil store forgot")
	}
}

func TestCorrupt(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	garbage := []byte(`{"version":1,"agents":{"a":`)
	if err := os.WriteFile(s.path(answersFile), garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	var ce *CorruptError
	if _, err := Open(dir); !errors.As(err, &ce) || ce.Path != s.path(answersFile) || !strings.Contains(err.Error(), "elicit history clear") {
		t.Errorf("Open = %v", err)
	}
	if err := s.RememberAnswers("a", "f", map[string]json.RawMessage{"k": json.RawMessage(`1`)}, isSecret); !errors.As(err, &ce) {
		t.Errorf("RememberAnswers = %v", err)
	}
	if _, _, err := s.Answers("a", "f"); !errors.As(err, &ce) {
		t.Errorf("Answers = %v", err)
	}
	if _, err := s.ForgetAgent("a"); !errors.As(err, &ce) {
		t.Errorf("ForgetAgent = %v", err)
	}
	if data, _ := os.ReadFile(s.path(answersFile)); string(data) != string(garbage) {
		t.Errorf("the damaged file was overwritten: %s", data)
	}
	// The sites file is separate and still works.
	if err := s.RecordSite("a.com", time.Now()); err != nil {
		t.Error(err)
	}
	if err := os.WriteFile(s.path(sitesFile), []byte(`{"version":99}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordSite("a.com", time.Now()); !errors.As(err, &ce) || !strings.Contains(err.Error(), "newer") {
		t.Errorf("newer version: %v", err)
	}
	if err := s.Clear(); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err != nil {
		t.Errorf("after Clear: %v", err)
	}
}
