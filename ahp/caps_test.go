package ahp

import (
	"strings"
	"testing"

	"github.com/elicit-dev/elicit/question"
)

// A request carries at most what a question of any source may: its
// message up to question.MaxMessageBytes, its questions up to
// question.MaxSchemaBytes of JSON.
func TestCheckRequestUsesTheQuestionCaps(t *testing.T) {
	at := Request{ID: "r", Message: strings.Repeat("x", question.MaxMessageBytes)}
	if err := CheckRequest(&at); err != nil {
		t.Errorf("a message at the cap: %v", err)
	}
	over := Request{ID: "r", Message: strings.Repeat("x", question.MaxMessageBytes+1)}
	if err := CheckRequest(&over); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("a message over the cap: %v", err)
	}
	big := Request{ID: "r", Questions: []Question{{ID: "q", Kind: KindText, Message: strings.Repeat("x", question.MaxSchemaBytes)}}}
	if err := CheckRequest(&big); err == nil || !strings.Contains(err.Error(), "questions are") {
		t.Errorf("questions over the cap: %v", err)
	}
}
