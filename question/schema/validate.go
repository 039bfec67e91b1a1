package schema

import (
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The functions below each check one constraint of the restricted schema.
// They are pure and shared by ParseInput, Check, FromAnswers and the
// parser's default check, so every path reports the same reason.

// checkMinLength fails when s has fewer than n characters (runes).
func checkMinLength(s string, n int) error {
	if c := utf8.RuneCountInString(s); c < n {
		return fmt.Errorf("shorter than %s", plural(n, "character"))
	}
	return nil
}

// checkMaxLength fails when s has more than n characters (runes).
func checkMaxLength(s string, n int) error {
	if c := utf8.RuneCountInString(s); c > n {
		return fmt.Errorf("longer than %s", plural(n, "character"))
	}
	return nil
}

// checkEmail fails unless s is a bare address such as a@example.com (no
// display name, no angle brackets), as net/mail parses it.
func checkEmail(s string) error {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s || strings.ContainsAny(s, "<>") {
		return errors.New("not an email address")
	}
	return nil
}

// checkURI fails unless s is an absolute URI: a scheme, then something,
// with no spaces or control characters.
func checkURI(s string) error {
	bad := errors.New("not an absolute URI (such as https://example.com)")
	if strings.IndexFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return bad
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || (u.Opaque == "" && u.Host == "" && u.Path == "") {
		return bad
	}
	return nil
}

// checkDate fails unless s is a calendar date written YYYY-MM-DD.
func checkDate(s string) error {
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return errors.New("not a date (YYYY-MM-DD)")
	}
	return nil
}

// checkDateTime fails unless s is an RFC 3339 date and time with a zone,
// such as 2026-05-01T09:30:00Z.
func checkDateTime(s string) error {
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		return errors.New("not a date and time (RFC 3339, such as 2026-05-01T09:30:00Z)")
	}
	return nil
}

// checkFormat applies the check for format f; FormatNone always passes.
func checkFormat(s string, f Format) error {
	switch f {
	case FormatEmail:
		return checkEmail(s)
	case FormatURI:
		return checkURI(s)
	case FormatDate:
		return checkDate(s)
	case FormatDateTime:
		return checkDateTime(s)
	}
	return nil
}

// checkOption fails unless v is the value of one of f's options.
func checkOption(v string, f *Field) error {
	if !f.hasOption(v) {
		return fmt.Errorf("%s is not one of the options", quoteShort(v))
	}
	return nil
}

// checkMinItems fails when fewer than min items were picked.
func checkMinItems(n, min int) error {
	if n < min {
		return fmt.Errorf("pick at least %d", min)
	}
	return nil
}

// checkMaxItems fails when more than max items were picked.
func checkMaxItems(n, max int) error {
	if n > max {
		return fmt.Errorf("pick at most %d", max)
	}
	return nil
}

// checkUnique fails when the same option was picked twice.
func checkUnique(vs []string) error {
	seen := make(map[string]bool, len(vs))
	for _, v := range vs {
		if seen[v] {
			return fmt.Errorf("%s given twice", quoteShort(v))
		}
		seen[v] = true
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
