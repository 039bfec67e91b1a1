package acpconn

import (
	"errors"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// AgentReason is the agent's own words in a JSON-RPC error: its message and
// the detail in data (a string, or an object's message-like field), made
// safe; "" when err is not an agent's error.
func AgentReason(err error) string {
	var re *acp.RequestError
	if !errors.As(err, &re) {
		return ""
	}
	msg := sanitize.Line(re.Message)
	if d := dataText(re.Data); d != "" && d != msg && !strings.Contains(msg, d) {
		msg += ": " + d
	}
	return msg
}

// dataText is the human part of an error's data: a string as it is, or the
// first message-like field of an object.
func dataText(data any) string {
	switch d := data.(type) {
	case string:
		return sanitize.Summary(d, 500)
	case map[string]any:
		for _, k := range []string{"details", "detail", "error", "message", "reason"} {
			if v, ok := d[k].(string); ok && v != "" {
				return sanitize.Summary(v, 500)
			}
		}
	}
	return ""
}

// AuthMethodsIn reads the sign-in methods an agent put in a -32000 error's
// data (qwen repeats them there), for the agent run as argv.
func AuthMethodsIn(err error, argv []string) []AuthMethod {
	var re *acp.RequestError
	if !errors.As(err, &re) {
		return nil
	}
	d, ok := re.Data.(map[string]any)
	if !ok || d["authMethods"] == nil {
		return nil
	}
	var ms []acp.AuthMethod
	if b, merr := jsonRoundTrip(d["authMethods"], &ms); merr != nil || b == 0 {
		return nil
	}
	return parseAuthMethods(ms, argv)
}

// GuessNote says why a guessed sign-in command (AuthMethod.Guess) needs a
// look before it runs.
const GuessNote = "check it first: elicit cannot tell how the agent's command line passes arguments on"
