package schema

import "testing"

// secretSamples match each alternative of secretWords.
var secretSamples = []string{"password", "passwords", "passwd", "passphrase", "pass code", "passcode", "pwd",
	"pin code", "secret", "secrets", "token", "api key", "apikeys", "private key", "priv keys", "ssl key", "tls key",
	"ssh key", "secret key", "signing key", "client key", "encryption keys", "sslkey", "privkey", "key file",
	"keyfile", "credential", "credentials", "card number", "cardnumbers", "credit card", "creditcards", "cvv",
	"cvc", "security code", "ssn", "social security", "the user's access token please"}

// The hints are a necessary condition: every text the expression matches
// holds one.
func TestSecretHintsCoverTheExpression(t *testing.T) {
	for _, s := range secretSamples {
		if !secretWords.MatchString(s) || !mentionsSecret(s) {
			t.Errorf("%q: expression %v, mentionsSecret %v", s, secretWords.MatchString(s), mentionsSecret(s))
		}
	}
}

func FuzzSecretHints(f *testing.F) {
	for _, s := range secretSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := words(s)
		if secretWords.MatchString(w) != mentionsSecret(w) {
			t.Fatalf("%q (%q): expression %v, mentionsSecret %v", s, w, secretWords.MatchString(w), mentionsSecret(w))
		}
	})
}
