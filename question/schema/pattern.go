package schema

import (
	"errors"
	"regexp"
	"strings"
	"time"

	"github.com/dlclark/regexp2"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// PatternTimeout bounds one ECMAScript pattern match: a pattern that
// backtracks catastrophically fails the value with a clear reason instead
// of hanging the form.
const PatternTimeout = 100 * time.Millisecond

// ErrPattern is the reason a value that does not match the field's pattern
// fails. The pattern itself is never in the message: it may be long or
// hostile; Field.PatternText shows it on request.
var ErrPattern = errors.New("does not match the required format")

// errPatternSlow is the reason when the pattern took too long to decide.
var errPatternSlow = errors.New("could not be checked against the required format in time")

// matcher is a compiled pattern: Go's RE2 or regexp2's ECMAScript engine.
type matcher interface {
	match(s string) (bool, error)
}

type re2Matcher struct{ re *regexp.Regexp }

func (m re2Matcher) match(s string) (bool, error) { return m.re.MatchString(s), nil }

type ecmaMatcher struct{ re *regexp2.Regexp }

func (m ecmaMatcher) match(s string) (bool, error) { return m.re.MatchString(s) }

// compilePattern compiles an ECMA-262 pattern with RE2 when it can (linear
// time), else with regexp2 in ECMAScript mode under PatternTimeout. It
// returns the engine's name, or nil and "" when neither compiles it.
func compilePattern(p string) (matcher, string) {
	if re, err := regexp.Compile(ecmaToRE2(p)); err == nil {
		return re2Matcher{re}, "re2"
	}
	re, err := regexp2.Compile(p, regexp2.ECMAScript)
	if err != nil {
		return nil, ""
	}
	re.MatchTimeout = PatternTimeout
	return ecmaMatcher{re}, "ecmascript"
}

// checkPattern fails when m finds no match in s; like ECMA-262 and JSON
// Schema, the pattern is not implicitly anchored.
func checkPattern(s string, m matcher) error {
	ok, err := m.match(s)
	switch {
	case err != nil:
		return errPatternSlow
	case !ok:
		return ErrPattern
	}
	return nil
}

// PatternText is the field's pattern made safe to show when the user asks
// for it: sanitized to one line, escape codes and bidi controls visible.
func (f *Field) PatternText() string { return sanitize.Line(f.Pattern) }

// ecmaToRE2 rewrites the one common ECMA-262 escape that RE2 spells
// differently, \uXXXX, as \x{XXXX}. Anything else RE2 cannot compile
// (lookaround, backreferences) goes to regexp2. Hand-written: no Go
// library translates ECMA-262 patterns to RE2.
func ecmaToRE2(p string) string {
	if !strings.Contains(p, `\u`) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			if p[i+1] == 'u' && i+6 <= len(p) && isHex(p[i+2:i+6]) {
				b.WriteString(`\x{` + p[i+2:i+6] + `}`)
				i += 5
				continue
			}
			b.WriteString(p[i : i+2])
			i++
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

func isHex(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}
