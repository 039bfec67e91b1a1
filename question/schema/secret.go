package schema

import (
	"regexp"
	"strings"
	"unicode"
)

// secretWords matches text that asks for a secret. It runs on words split
// from keys and titles (apiKey, api_key and API-Key all become "api key"),
// so "token" matches "access token" but not "max tokens".
var secretWords = regexp.MustCompile(`\b(passwords?|passwd|passphrase|pass ?code|pwd|pin code|secrets?|token|api ?keys?|(private|priv|ssl|tls|ssh|secret|signing|client|encryption) ?keys?|sslkey|privkey|key ?file|credentials?|card ?numbers?|credit ?cards?|cvv|cvc|security code|ssn|social security)\b`)

// secretHints are substrings every match of secretWords contains, so a
// text with none of them is not searched (the search backtracks).
var secretHints = []string{"pass", "pwd", "pin", "secret", "token", "key", "credential", "card", "cvv", "cvc", "security", "ssn"}

// mentionsSecret reports whether w, from words, matches secretWords.
func mentionsSecret(w string) bool {
	for _, h := range secretHints {
		if strings.Contains(w, h) {
			return secretWords.MatchString(w)
		}
	}
	return false
}

// isSecret reports whether the field's key, title or description asks for
// a secret, which form mode must not carry; so does a password-like
// format (pydantic's SecretStr says "password").
func isSecret(f *Field) bool {
	switch words(f.FormatAnnotation) {
	case "password", "passwd", "secret":
		return true
	}
	for _, s := range []string{f.Key, f.Title, f.Description} {
		if s != "" && mentionsSecret(words(s)) {
			return true
		}
	}
	return false
}

// words lower-cases s and splits camelCase and snake_case into words.
func words(s string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range s {
		switch {
		case r == '_' || r == '-' || r == '.':
			b.WriteByte(' ')
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteByte(' ')
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		prev = r
	}
	return b.String()
}
