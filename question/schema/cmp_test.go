package schema

import (
	"math/big"
	"testing"
)

// cmpInputs are numbers as agents and people write them.
var cmpInputs = []string{"0", "-0", "0.0", "1", "-1", "10", "1e1", "100", "99", "0.5", ".5", "-0.5", "0.05", "0.123", "0.12", "0.13",
	"123", "12", "13", "1.5e+30", "1.5e30", "-1.5e30", "1e-7", "-1e-7", "9007199254740993", "9007199254740992",
	"12345678901234567890", "12345678901234567891", "-12345678901234567890", "3", "3.0", "2.9999999999999999999", "1e308", "-1e308", "1e-300"}

// TestDecimalCmp: the exact comparison of two decimals agrees with math/big
// rationals (what it replaced) on every pair.
func TestDecimalCmp(t *testing.T) {
	for _, a := range cmpInputs {
		for _, b := range cmpInputs {
			checkCmp(t, a, b)
		}
	}
}

func checkCmp(t *testing.T, a, b string) {
	t.Helper()
	da, err1 := parseDecimal(a)
	db, err2 := parseDecimal(b)
	if err1 != nil || err2 != nil {
		return
	}
	ra, _ := new(big.Rat).SetString(da.String())
	rb, _ := new(big.Rat).SetString(db.String())
	if got, want := da.cmp(db), ra.Cmp(rb); got != want {
		t.Fatalf("cmp(%s, %s) = %d, math/big says %d", a, b, got, want)
	}
}

func FuzzDecimalCmp(f *testing.F) {
	for i, a := range cmpInputs {
		f.Add(a, cmpInputs[(i+7)%len(cmpInputs)])
	}
	f.Fuzz(func(t *testing.T, a, b string) { checkCmp(t, a, b) })
}
