package config

import (
	"net/url"
)

// checkRemote says what is wrong with a remote agent's entry, or "". The
// transport's own rules (https off loopback, no credentials in the URL)
// are checked again, with the flags, when it connects.
func checkRemote(a AgentEntry) string {
	u, err := url.Parse(a.URL)
	if err != nil {
		return "url: " + err.Error()
	}
	switch u.Scheme {
	case "https", "wss", "http", "ws":
	default:
		return "url: the scheme must be https, wss, http or ws"
	}
	if u.User != nil {
		return "url: no credentials in the URL; put the token in an environment variable and name it with token_env"
	}
	if a.TokenEnv != "" && !ValidEnvName(a.TokenEnv) {
		return "token_env is not a variable name: give the name of the variable that holds the token, not the token (it is not shown here)"
	}
	switch a.Transport {
	case "", "ws", "http":
	default:
		return "transport: want \"ws\" or \"http\""
	}
	if len(a.Env) > 0 {
		return "env: a remote agent is not started here; its environment is its server's"
	}
	return ""
}
