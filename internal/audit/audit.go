// Package audit appends one JSON line per question to an audit log: who
// asked, who answered (the user, a hook, the answers file, a history
// prefill, or elicit itself) and the outcome, never a secret's value.
//
//	log, err := audit.Open(path) // --audit FILE
//	e := audit.Entry{Agent: "claude", Session: sid, Kind: audit.Form, Message: summary, AnsweredBy: audit.ByUser, Outcome: "accept"}
//	e.SetContent(content, isSecret) // keys, and values of the fields that are not secret
//	err = log.Record(e)
//
// Each entry is written with one write(2) on a file opened with O_APPEND,
// under an exclusive flock, so several elicit processes can share one log
// and no line is ever interleaved with another.
package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/elicit-dev/elicit/internal/safefile"
)

// Kind is the kind of question.
type Kind string

// The kinds of question.
const (
	Form       Kind = "form"
	URL        Kind = "url"
	Permission Kind = "permission"
	// Write is elicit's own question about a file write of the agent
	// that no permission covered.
	Write Kind = "write"
)

// Source is who answered.
type Source string

// Who can answer a question.
const (
	ByUser        Source = "user"
	ByHook        Source = "hook"
	ByAnswersFile Source = "answers-file"
	// ByHistory is a form the user submitted unchanged from a history
	// prefill (history never submits on its own).
	ByHistory Source = "history"
	// ByAuto is elicit itself: a rate limit, a withdrawn question, a
	// question nobody was there to answer (cancelled).
	ByAuto Source = "auto"
	// ByRule is a permission rule the user wrote: Entry.Rule names it.
	ByRule Source = "rule"
)

// MaxMessage is how many runes of the question's message are kept.
const MaxMessage = 200

// Entry is one question and its outcome.
type Entry struct {
	Time    time.Time `json:"time"`
	Agent   string    `json:"agent,omitempty"`
	Session string    `json:"session,omitempty"`
	Kind    Kind      `json:"kind"`
	// Message is a summary of the question (cut to MaxMessage runes).
	Message string `json:"message,omitempty"`
	// Site is a URL question's registrable domain.
	Site       string `json:"site,omitempty"`
	AnsweredBy Source `json:"answered_by"`
	// Hook is the command of the hook that answered or overrode.
	Hook string `json:"hook,omitempty"`
	// Rule is the permission rule that answered, and where it is written
	// (`Bash(npm test:*) in /home/me/.config/elicit/config.toml:3`).
	Rule string `json:"rule,omitempty"`
	// Outcome is the action sent ("accept", "decline", "cancel"), or a
	// permission's option.
	Outcome string `json:"outcome"`
	// Keys are the answered properties, in the content's order.
	Keys []string `json:"keys,omitempty"`
	// Values are the answers of the properties that are not secret.
	Values map[string]json.RawMessage `json:"values,omitempty"`
	// Note says anything else: a hook's failure, an override.
	Note string `json:"note,omitempty"`
}

// SetContent fills Keys from a form answer's content (a JSON object), and
// Values from the properties for which secret is false; with a nil secret
// no value is kept.
func (e *Entry) SetContent(content json.RawMessage, secret func(key string) bool) error {
	dec := json.NewDecoder(bytes.NewReader(content))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errors.New("audit: content is not a JSON object")
	}
	e.Keys, e.Values = nil, nil
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return fmt.Errorf("audit: content: %w", err)
		}
		key := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("audit: content: %w", err)
		}
		e.Keys = append(e.Keys, key)
		if secret != nil && !secret(key) {
			if e.Values == nil {
				e.Values = map[string]json.RawMessage{}
			}
			e.Values[key] = v
		}
	}
	return nil
}

// Log is an open audit log. A nil *Log records nothing.
type Log struct {
	mu sync.Mutex
	f  *os.File
}

// Open opens (or makes, mode 0600, with its directory) the log at path
// for appending. It refuses a symbolic link, anything but a regular file,
// and a file that is not the user's own with mode 0600 (or stricter),
// saying how to fix it.
func Open(path string) (*Log, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	// Never through a symbolic link, never to a FIFO or a device, and only
	// to a file of the user's that no one else can read or write.
	f, err := safefile.Append(path, 0o600)
	if err == nil {
		if err = safefile.Private(f, path); err != nil {
			f.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	return &Log{f: f}, nil
}

// Record appends the entry as one line, stamping Time when it is zero.
func (l *Log) Record(e Entry) error {
	if l == nil {
		return nil
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	e.Time = e.Time.UTC()
	e.Message = cut(e.Message, MaxMessage)
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	unlock, err := lock(l.f)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer unlock()
	n, err := l.f.Write(line)
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// Close closes the log.
func (l *Log) Close() error {
	if l == nil {
		return nil
	}
	return l.f.Close()
}

// cut keeps the first n runes of s, marking the cut with "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k] + "…"
		}
		i++
	}
	return s
}
