package history

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"time"
)

// AgentSummary is what is remembered for one agent.
type AgentSummary struct {
	// Agent is the agent's name.
	Agent string
	// Forms is how many forms have remembered answers.
	Forms int
	// Suggestions is how many recent values are kept, over all properties.
	Suggestions int
	// Last is when a form of this agent was last accepted.
	Last time.Time
}

// Summary is the whole history, for `elicit history list`.
type Summary struct {
	// Dir is the state directory.
	Dir string
	// Agents are sorted by name.
	Agents []AgentSummary
	// Sites are the remembered sites by name.
	Sites map[string]Visit
}

// List summarises what is remembered.
func (s *Store) List() (Summary, error) {
	if s == nil {
		return Summary{}, nil
	}
	sum := Summary{Dir: s.dir, Sites: map[string]Visit{}}
	var a answers
	if err := read(s.path(answersFile), &a); err != nil {
		return sum, err
	}
	for _, name := range slices.Sorted(maps.Keys(a.Agents)) {
		m := a.Agents[name]
		as := AgentSummary{Agent: name, Forms: len(m.Forms)}
		for _, r := range m.Forms {
			if r.At.After(as.Last) {
				as.Last = r.At
			}
		}
		for _, list := range m.Recent {
			as.Suggestions += len(list)
		}
		sum.Agents = append(sum.Agents, as)
	}
	var f sites
	if err := read(s.path(sitesFile), &f); err != nil {
		return sum, err
	}
	for name, v := range f.Sites {
		sum.Sites[name] = *v
	}
	return sum, nil
}

// ForgetAgent removes every answer and suggestion remembered for agent,
// and reports whether there were any.
func (s *Store) ForgetAgent(agent string) (bool, error) {
	if s == nil {
		return false, nil
	}
	found := false
	err := update(s, answersFile, func(a *answers) bool {
		_, found = a.Agents[agent]
		delete(a.Agents, agent)
		a.Version = Version
		return found
	})
	return found, err
}

// Clear removes both files, even damaged ones: it is how the user recovers
// from a *CorruptError.
func (s *Store) Clear() error {
	if s == nil {
		return nil
	}
	unlock, err := lock(s.path(lockFile))
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	defer unlock()
	for _, name := range []string{answersFile, sitesFile} {
		if err := os.Remove(s.path(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("history: %w", err)
		}
	}
	return nil
}
