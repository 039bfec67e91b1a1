package forms

import (
	"testing"

	"github.com/elicit-dev/elicit/question/schema"
)

func mustParse(t testing.TB, s string) *schema.Schema {
	t.Helper()
	sc, err := schema.ParseSchema([]byte(s))
	if err != nil {
		t.Fatalf("ParseSchema: %v", err)
	}
	return sc
}
