package schema

import (
	"testing"
)

func TestCheckFunctions(t *testing.T) {
	re, _ := compilePattern(`^[0-9]{5}$`)
	digit, _ := compilePattern(`[0-9]`)
	look, engine := compilePattern(`^(?=.*[A-Z]).{8,}$`)
	if engine != "ecmascript" {
		t.Fatalf("lookahead compiled by %q", engine)
	}
	slow, _ := compilePattern(`^(?!x)(a+)+$`)
	opt := &Field{Options: []Option{{Value: "a"}, {Value: "b"}}}
	if err := indexOptions(opt); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		err  error
		want string // "" means pass
	}{
		{"minLength ok runes", checkMinLength("café", 4), ""},
		{"minLength short", checkMinLength("ab", 3), "shorter than 3 characters"},
		{"minLength one", checkMinLength("", 1), "shorter than 1 character"},
		{"maxLength emoji counts runes", checkMaxLength("😀😀", 2), ""},
		{"maxLength long", checkMaxLength("abc", 2), "longer than 2 characters"},
		{"pattern ok", checkPattern("12345", re), ""},
		{"pattern bad, never quoted", checkPattern("1234", re), "does not match the required format"},
		{"pattern unanchored", checkPattern("xx1yy", digit), ""},
		{"ecmascript lookahead ok", checkPattern("Abcdefgh", look), ""},
		{"ecmascript lookahead bad", checkPattern("abcdefgh", look), "does not match the required format"},
		{"ecmascript catastrophic backtracking ends", checkPattern("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!", slow), "could not be checked against the required format in time"},
		{"email ok", checkEmail("jane@example.com"), ""},
		{"email plus", checkEmail("a+b@sub.example.org"), ""},
		{"email no at", checkEmail("jane.example.com"), "not an email address"},
		{"email display name", checkEmail("Jane <jane@example.com>"), "not an email address"},
		{"email spaces", checkEmail(" jane@example.com"), "not an email address"},
		{"uri ok", checkURI("https://example.com/a?b=c"), ""},
		{"uri urn", checkURI("urn:isbn:0451450523"), ""},
		{"uri mailto", checkURI("mailto:a@b.c"), ""},
		{"uri relative", checkURI("/just/a/path"), "not an absolute URI (such as https://example.com)"},
		{"uri space", checkURI("https://exa mple.com"), "not an absolute URI (such as https://example.com)"},
		{"uri scheme only", checkURI("https:"), "not an absolute URI (such as https://example.com)"},
		{"date ok", checkDate("2024-02-29"), ""},
		{"date not leap", checkDate("2023-02-29"), "not a date (YYYY-MM-DD)"},
		{"date us", checkDate("12/26/2024"), "not a date (YYYY-MM-DD)"},
		{"date short", checkDate("2024-1-2"), "not a date (YYYY-MM-DD)"},
		{"datetime ok", checkDateTime("2026-05-01T09:30:00Z"), ""},
		{"datetime offset frac", checkDateTime("2026-05-01T09:30:00.25+02:00"), ""},
		{"datetime no zone", checkDateTime("2026-05-01T09:30:00"), "not a date and time (RFC 3339, such as 2026-05-01T09:30:00Z)"},
		{"datetime date only", checkDateTime("2026-05-01"), "not a date and time (RFC 3339, such as 2026-05-01T09:30:00Z)"},
		{"format none", checkFormat("anything", FormatNone), ""},
		{"format email", checkFormat("x", FormatEmail), "not an email address"},
		{"option ok", checkOption("a", opt), ""},
		{"option missing", checkOption("c", opt), `"c" is not one of the options`},
		{"minItems ok", checkMinItems(1, 1), ""},
		{"minItems few", checkMinItems(0, 1), "pick at least 1"},
		{"maxItems ok", checkMaxItems(3, 3), ""},
		{"maxItems many", checkMaxItems(4, 3), "pick at most 3"},
		{"unique ok", checkUnique([]string{"a", "b"}), ""},
		{"unique dup", checkUnique([]string{"a", "a"}), `"a" given twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if tt.err != nil {
				got = tt.err.Error()
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEcmaToRE2(t *testing.T) {
	tests := []struct{ in, want string }{
		{`^[a-z]+$`, `^[a-z]+$`},
		{`^\u0041+$`, `^\x{0041}+$`},
		{`\\u0041`, `\\u0041`},
		{`\u00e9\d`, `\x{00e9}\d`},
		{`\u12`, `\u12`},
	}
	for _, tt := range tests {
		if got := ecmaToRE2(tt.in); got != tt.want {
			t.Errorf("ecmaToRE2(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
