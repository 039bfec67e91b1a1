package hostile

import (
	"regexp"
	"testing"
)

// TestPatternCompiles keeps the hostile pattern a pattern: a schema whose
// pattern does not compile tests the refusal, not the display.
func TestPatternCompiles(t *testing.T) {
	if _, err := regexp.Compile("^" + regexp.QuoteMeta(Short("pattern")) + "$"); err != nil {
		t.Fatal(err)
	}
}
