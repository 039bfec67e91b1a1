package history

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Bounds on what is kept, so that the files stay small.
const (
	// MaxForms is how many forms are remembered per agent; the least
	// recently answered go first.
	MaxForms = 100
	// MaxSuggestions is how many recent values are kept per property.
	MaxSuggestions = 50
	// MaxValueBytes is the largest value (as JSON) remembered for prefill.
	MaxValueBytes = 4096
	// MaxSuggestionRunes is the longest string kept as a suggestion.
	MaxSuggestionRunes = 200
)

// Field is one property of a form's schema, as Fingerprint sees it.
type Field struct {
	// Key is the property's name.
	Key string
	// Type is its JSON-Schema type ("string", "integer", "array", ...),
	// or any word that tells the kinds of field apart.
	Type string
}

// Fingerprint identifies a form by its property keys and types, in order:
// the same form asked again has the same fingerprint even if its message,
// titles or defaults changed.
func Fingerprint(fields []Field) string {
	h := sha256.New()
	for _, f := range fields {
		// Each string after its length, so no two lists write the same bytes.
		for _, s := range []string{f.Key, f.Type} {
			h.Write(binary.AppendUvarint(nil, uint64(len(s))))
			h.Write([]byte(s))
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// Remembered is a form's answers from last time.
type Remembered struct {
	// Values are the answers by property key, exact JSON as sent.
	Values map[string]json.RawMessage
	// At is when the form was accepted.
	At time.Time
}

type answers struct {
	Version int                      `json:"version"`
	Agents  map[string]*agentAnswers `json:"agents,omitempty"`
}

func (a *answers) version() int { return a.Version }

type agentAnswers struct {
	Forms  map[string]*Remembered   `json:"forms,omitempty"`
	Recent map[string][]recentValue `json:"recent,omitempty"`
}

type recentValue struct {
	Value string    `json:"value"`
	At    time.Time `json:"at"`
}

// RememberAnswers keeps an accepted form's answers for this agent and
// fingerprint, and its string answers as suggestions for their property.
// Every key for which secret returns true is left out, and secret may not
// be nil: pass the same rule that warns about secrets in the form. Values
// larger than MaxValueBytes are left out too. Call it for form mode only,
// and only after the user (not a hook or a file) accepted.
func (s *Store) RememberAnswers(agent, fingerprint string, values map[string]json.RawMessage, secret func(key string) bool) error {
	if s == nil {
		return nil
	}
	if secret == nil {
		return errors.New("history: RememberAnswers needs the secret-field rule")
	}
	keep := map[string]json.RawMessage{}
	for k, v := range values {
		if secret(k) || len(v) > MaxValueBytes {
			continue
		}
		var c bytes.Buffer
		if err := json.Compact(&c, v); err != nil {
			return errors.New("history: the answer to " + k + " is not JSON")
		}
		keep[k] = json.RawMessage(c.Bytes())
	}
	if len(keep) == 0 {
		return nil
	}
	at := s.now().UTC()
	return update(s, answersFile, func(a *answers) bool {
		a.Version = Version
		if a.Agents == nil {
			a.Agents = map[string]*agentAnswers{}
		}
		m := a.Agents[agent]
		if m == nil {
			m = &agentAnswers{}
			a.Agents[agent] = m
		}
		if m.Forms == nil {
			m.Forms = map[string]*Remembered{}
		}
		m.Forms[fingerprint] = &Remembered{Values: keep, At: at}
		trimForms(m.Forms)
		for _, k := range slices.Sorted(maps.Keys(keep)) {
			var str string
			if json.Unmarshal(keep[k], &str) != nil || strings.TrimSpace(str) == "" || utf8.RuneCountInString(str) > MaxSuggestionRunes {
				continue
			}
			if m.Recent == nil {
				m.Recent = map[string][]recentValue{}
			}
			m.Recent[k] = pushRecent(m.Recent[k], str, at)
		}
		return true
	})
}

// trimForms drops the least recently answered forms beyond MaxForms.
func trimForms(forms map[string]*Remembered) {
	for len(forms) > MaxForms {
		var oldest string
		for fp, r := range forms {
			if oldest == "" || r.At.Before(forms[oldest].At) {
				oldest = fp
			}
		}
		delete(forms, oldest)
	}
}

// pushRecent puts v first, removes its older copy and keeps MaxSuggestions.
func pushRecent(list []recentValue, v string, at time.Time) []recentValue {
	out := []recentValue{{Value: v, At: at}}
	for _, r := range list {
		if r.Value != v && len(out) < MaxSuggestions {
			out = append(out, r)
		}
	}
	return out
}

// Answers returns what was answered last time this agent asked the form
// with this fingerprint. The caller prefills them, marked "from last time",
// after checking each against the schema as it is now; it never submits
// them on its own.
func (s *Store) Answers(agent, fingerprint string) (Remembered, bool, error) {
	snap, err := s.Snapshot()
	if err != nil {
		return Remembered{}, false, err
	}
	r, ok := snap.Answers(agent, fingerprint)
	return r, ok, nil
}

// Suggestions returns up to n distinct string values recently given to
// this property in any of the agent's forms, newest first.
func (s *Store) Suggestions(agent, property string, n int) ([]string, error) {
	snap, err := s.Snapshot()
	if err != nil {
		return nil, err
	}
	return snap.Suggestions(agent, property, n), nil
}

// Snapshot is the answers file read once, for the several lookups one
// question makes (its answers, then suggestions for each field).
type Snapshot struct{ a *answers }

// Snapshot reads the answers file (or reuses it while unchanged). A nil
// *Store gives an empty snapshot.
func (s *Store) Snapshot() (Snapshot, error) {
	if s == nil {
		return Snapshot{}, nil
	}
	a, err := s.readAnswers()
	return Snapshot{a}, err
}

// Answers is Store.Answers on the snapshot.
func (p Snapshot) Answers(agent, fingerprint string) (Remembered, bool) {
	if p.a == nil {
		return Remembered{}, false
	}
	if m := p.a.Agents[agent]; m != nil {
		if r := m.Forms[fingerprint]; r != nil {
			return compacted(*r), true
		}
	}
	return Remembered{}, false
}

// Suggestions is Store.Suggestions on the snapshot.
func (p Snapshot) Suggestions(agent, property string, n int) []string {
	if p.a == nil || n <= 0 {
		return nil
	}
	m := p.a.Agents[agent]
	if m == nil {
		return nil
	}
	var out []string
	for _, r := range m.Recent[property] {
		if len(out) == n {
			break
		}
		out = append(out, r.Value)
	}
	return out
}

// compacted undoes the file's indentation inside the values, so the caller
// gets each value as it was remembered.
func compacted(r Remembered) Remembered {
	out := Remembered{Values: make(map[string]json.RawMessage, len(r.Values)), At: r.At}
	for k, v := range r.Values {
		var c bytes.Buffer
		if json.Compact(&c, v) == nil {
			v = c.Bytes()
		}
		out.Values[k] = v
	}
	return out
}
