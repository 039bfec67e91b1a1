package history

import (
	"encoding/json"
	"testing"
)

// TestAnswersCacheSeesOtherWriters checks that the decoded answers are
// reused while the file is unchanged and read again once another Store (as
// another elicit process would) replaces it.
func TestAnswersCacheSeesOtherWriters(t *testing.T) {
	dir := t.TempDir()
	reader, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	writer, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := reader.Answers("claude", "fp"); ok || err != nil {
		t.Fatalf("answers before any were given: %v %v", ok, err)
	}
	first := map[string]json.RawMessage{"name": json.RawMessage(`"Ada"`)}
	if err := writer.RememberAnswers("claude", "fp", first, noSecrets); err != nil {
		t.Fatal(err)
	}
	got, ok, err := reader.Answers("claude", "fp")
	if err != nil || !ok || string(got.Values["name"]) != `"Ada"` {
		t.Fatalf("the reader missed the other store's write: %v %v %s", ok, err, got.Values["name"])
	}
	a1, _ := reader.readAnswers()
	a2, _ := reader.readAnswers()
	if a1 != a2 {
		t.Error("an unchanged file was decoded again")
	}
	second := map[string]json.RawMessage{"name": json.RawMessage(`"Grace"`)}
	if err := writer.RememberAnswers("claude", "fp", second, noSecrets); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := reader.Answers("claude", "fp"); string(got.Values["name"]) != `"Grace"` {
		t.Fatalf("the reader kept a stale answer after a rewrite: %s", got.Values["name"])
	}
	if s, _ := reader.Suggestions("claude", "name", 5); len(s) != 2 || s[0] != "Grace" {
		t.Fatalf("suggestions after a rewrite: %v", s)
	}
}

func noSecrets(string) bool { return false }
