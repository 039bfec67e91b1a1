package ahp

import (
	"encoding/json"
	"testing"
)

// A number whose exact value would take the host's memory is refused
// before it is parsed.
func TestHugeExponentRefused(t *testing.T) {
	q := &Question{ID: "n", Kind: KindNumber, Message: "n", Max: num("10")}

	for _, n := range []string{"1e999999999", "1E+400000", "9e99999"} {
		a := &Answer{State: Submitted, Value: &Value{Kind: ValueNumber, Number: jsonNumber(n)}}
		if err := CheckAnswer(q, a, Limits{}); err == nil {
			t.Errorf("%s was taken", n)
		}
	}
	for _, n := range []string{"1e2", "2.5E-3", "1e+400", "7"} {
		a := &Answer{State: Draft, Value: &Value{Kind: ValueNumber, Number: jsonNumber(n)}}
		if err := CheckAnswer(q, a, Limits{}); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}

}

func jsonNumber(s string) json.Number { return json.Number(s) }
