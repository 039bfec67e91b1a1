package config

import (
	"fmt"
	"sort"
)

// The inbox key has two spellings, since TOML cannot have both a key and a
// table of one name: `inbox = false` keeps every session out of the
// inbox, and an [inbox] table says more:
//
//	[inbox]
//	enabled = true                         # the default
//	attach = ["ws://127.0.0.1:41234/",     # AHP hosts elsewhere the inbox shows too
//	          { url = "wss://build:8443/", token_env = "BUILD_TOKEN" }]
//
// Hand-read: the TOML decoder gives a key one Go type.

// Inbox is what the file says of the inbox.
type Inbox struct {
	// Enabled is false when sessions stay out of the inbox; nil: on.
	Enabled *bool
	// Attach are the AHP hosts elsewhere the inbox shows.
	Attach []InboxHost
}

// InboxHost is one host of [inbox] attach: its URL and where its bearer
// token is (an environment variable, or a file of the user's own).
type InboxHost struct {
	URL       string
	TokenEnv  string
	TokenFile string
}

// inboxOf reads the decoded value of the inbox key.
func inboxOf(v any) (Inbox, error) {
	var in Inbox
	switch v := v.(type) {
	case nil:
		return in, nil
	case bool:
		in.Enabled = &v
		return in, nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch x := v[k]; k {
			case "enabled":
				b, ok := x.(bool)
				if !ok {
					return in, fmt.Errorf("inbox.enabled is true or false, not %v", x)
				}
				in.Enabled = &b
			case "attach":
				list, ok := x.([]any)
				if !ok {
					return in, fmt.Errorf("inbox.attach is a list of URLs")
				}
				for i, e := range list {
					h, err := inboxHostOf(e)
					if err != nil {
						return in, fmt.Errorf("inbox.attach[%d]: %w", i, err)
					}
					in.Attach = append(in.Attach, h)
				}
			default:
				return in, fmt.Errorf("unknown key %q", "inbox."+k)
			}
		}
		return in, nil
	}
	return in, fmt.Errorf("inbox is false, or an [inbox] table (enabled, attach), not %v", v)
}

func inboxHostOf(v any) (InboxHost, error) {
	switch v := v.(type) {
	case string:
		if v == "" {
			return InboxHost{}, fmt.Errorf("an empty URL")
		}
		return InboxHost{URL: v}, nil
	case map[string]any:
		var h InboxHost
		for k, x := range v {
			s, ok := x.(string)
			if !ok {
				return h, fmt.Errorf("%s is a string", k)
			}
			switch k {
			case "url":
				h.URL = s
			case "token_env":
				h.TokenEnv = s
			case "token_file":
				h.TokenFile = s
			default:
				return h, fmt.Errorf("unknown key %q (url, token_env, token_file)", k)
			}
		}
		if h.URL == "" {
			return h, fmt.Errorf("no url")
		}
		if h.TokenEnv != "" && !ValidEnvName(h.TokenEnv) {
			return h, fmt.Errorf("token_env %q is not a variable's name", h.TokenEnv)
		}
		return h, nil
	}
	return InboxHost{}, fmt.Errorf("a URL, or a table with url and token_env or token_file")
}
