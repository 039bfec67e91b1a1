package schema

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
)

// Numbers travel as json.Number from the agent's JSON to the content sent
// back, never through float64: a default of 9007199254740993 is sent as
// 9007199254740993, and 12345678901234567890 is a whole number even though
// no int64 holds it. Bounds are compared exactly, as decimals.

// errNotNumber is the reason text that is not a decimal number fails.
var errNotNumber = errors.New("not a number")

// maxExponent bounds the decimal exponent of a number read from an agent
// or a person, so that building its exact rational stays cheap; anything
// beyond float64's range is refused anyway.
const maxExponent = 400

// decimal is a number in exact decimal form: (-1)^neg × 0.digits × 10^exp,
// with no leading or trailing zeros in digits ("" for zero).
type decimal struct {
	neg    bool
	digits string
	exp    int
}

// parseDecimal reads a number as JSON or a person writes it: an optional
// sign ("+" too), digits with at most one ".", which may come first (".5"),
// and an optional exponent. Hex, underscores, "Inf" and "NaN" are refused,
// and so are values beyond float64's range, which JSON readers cannot hold.
// Hand-written: strconv and math/big either round through float64 or
// accept Go syntax (underscores, hex) and unbounded exponents.
func parseDecimal(s string) (decimal, error) {
	var d decimal
	t := strings.TrimSpace(s)
	if t == "" {
		return d, errNotNumber
	}
	switch t[0] {
	case '-':
		d.neg, t = true, t[1:]
	case '+':
		t = t[1:]
	}
	mant, expText, hasExp := strings.Cut(strings.ToLower(t), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart == "" && frac == "" || !allDigits(intPart) || !allDigits(frac) || strings.Count(mant, ".") > 1 {
		return d, errNotNumber
	}
	exp := 0
	if hasExp {
		e, err := strconv.Atoi(strings.TrimPrefix(expText, "+"))
		if err != nil || expText == "" || strings.HasPrefix(expText, "+-") || strings.HasPrefix(expText, "++") {
			return d, errNotNumber
		}
		if e > 10*maxExponent || e < -10*maxExponent {
			return d, errors.New("too large or too small to send")
		}
		exp = e
	}
	digits := intPart + frac
	exp += len(intPart)
	trimmed := strings.TrimLeft(digits, "0")
	exp -= len(digits) - len(trimmed)
	d.digits = strings.TrimRight(trimmed, "0")
	d.exp = exp
	if d.digits == "" {
		d.neg, d.exp = false, 0
		return d, nil
	}
	if d.exp > maxExponent || d.exp < -maxExponent {
		return d, errors.New("too large or too small to send")
	}
	if x, err := strconv.ParseFloat(d.String(), 64); err != nil || math.IsInf(x, 0) {
		return d, errors.New("too large to send")
	}
	return d, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// whole reports whether d has no fractional part.
func (d decimal) whole() bool { return d.exp >= len(d.digits) }

// String writes d as JSON, the way JavaScript writes numbers: plain
// digits up to 21 places ("8000", "0.5", "0.000001"), else exponent form
// ("1.5e+30", "1e-7").
func (d decimal) String() string {
	if d.digits == "" {
		return "0"
	}
	var b strings.Builder
	if d.neg {
		b.WriteByte('-')
	}
	k, n := len(d.digits), d.exp
	switch {
	case k <= n && n <= 21:
		b.WriteString(d.digits + strings.Repeat("0", n-k))
	case 0 < n && n <= 21:
		b.WriteString(d.digits[:n] + "." + d.digits[n:])
	case -6 < n && n <= 0:
		b.WriteString("0." + strings.Repeat("0", -n) + d.digits)
	default:
		b.WriteString(d.digits[:1])
		if k > 1 {
			b.WriteString("." + d.digits[1:])
		}
		e := n - 1
		b.WriteByte('e')
		if e >= 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(e))
	}
	return b.String()
}

// integerString writes a whole d as plain digits, however long.
func (d decimal) integerString() string {
	if d.digits == "" {
		return "0"
	}
	s := d.digits + strings.Repeat("0", d.exp-len(d.digits))
	if d.neg {
		return "-" + s
	}
	return s
}

// cmp compares d and e exactly: -1 when d < e, 0 when equal, +1 when
// d > e. Both are normalized (no leading or trailing zero digit, zero as
// "" and not negative), so magnitudes compare by exponent, then by digits
// as text ("12" < "123" as 0.12 < 0.123). Hand-written: a math/big
// rational per value and bound was most of what checking a number
// allocated.
func (d decimal) cmp(e decimal) int {
	ds, es := d.sign(), e.sign()
	if ds != es {
		if ds < es {
			return -1
		}
		return 1
	}
	if ds == 0 {
		return 0
	}
	mag := 0 // |d| against |e|
	switch {
	case d.exp != e.exp:
		mag = 1
		if d.exp < e.exp {
			mag = -1
		}
	case d.digits < e.digits:
		mag = -1
	case d.digits > e.digits:
		mag = 1
	}
	return mag * ds
}

// sign is -1, 0 or +1.
func (d decimal) sign() int {
	switch {
	case d.digits == "":
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// number is a value of a number or integer field: the JSON text sent and
// the exact value compared with bounds.
type number struct {
	text json.Number
	dec  decimal
}

// toNumber reads the numeric types a caller or a JSON decoder produces
// (json.Number, float64, int64, int, ...) without rounding json.Number.
func toNumber(v any) (number, bool) {
	var s string
	switch n := v.(type) {
	case json.Number:
		s = n.String()
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return number{}, false
		}
		s = strconv.FormatFloat(n, 'g', -1, 64)
	case float32:
		s = strconv.FormatFloat(float64(n), 'g', -1, 32)
	case int:
		s = strconv.Itoa(n)
	case int64:
		s = strconv.FormatInt(n, 10)
	case int32:
		s = strconv.FormatInt(int64(n), 10)
	case uint64:
		s = strconv.FormatUint(n, 10)
	default:
		return number{}, false
	}
	d, err := parseDecimal(s)
	if err != nil {
		return number{}, false
	}
	return number{json.Number(d.String()), d}, true
}

// bound is a parsed numeric keyword (minimum, exclusiveMaximum, ...).
type bound struct {
	text json.Number
	d    decimal
}

func newBound(d decimal) *bound { return &bound{json.Number(d.String()), d} }

// formatNumber writes a bound or value the way JSON and a person would:
// 100, 0.5, -3, 1e+30. It takes a json.Number or any Go number.
func formatNumber(v any) string {
	if n, ok := toNumber(v); ok {
		return n.text.String()
	}
	return "?"
}
