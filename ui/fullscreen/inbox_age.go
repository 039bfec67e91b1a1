package fullscreen

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/elicit-dev/elicit/question"
)

// How long each question has waited is shown in whole minutes, hours or
// days, so the list needs redrawing only when one of those changes: one
// timer, set for the soonest change, and none while no question waits (an
// idle inbox makes no wake-up).

// waited says how long a question has waited: "just now", "4m", "2h",
// "3d".
func waited(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
}

// nextChange is when waited(now - since) next changes.
func nextChange(since, now time.Time) time.Time {
	d := now.Sub(since)
	unit := time.Minute
	switch {
	case d < time.Hour:
	case d < 24*time.Hour:
		unit = time.Hour
	default:
		unit = 24 * time.Hour
	}
	if d < 0 {
		d = 0
	}
	return since.Add((d/unit + 1) * unit)
}

// ageTimer is the one timer that redraws the ages.
type ageTimer struct {
	at  time.Time // when the timer set fires; zero when none is set
	gen int
}

// inboxAgeMsg is the age timer's tick.
type inboxAgeMsg struct{ gen int }

// next sets the timer for the soonest change of an age rows show, unless
// one is set for sooner.
func (a *ageTimer) next(p *inboxPanel, rows []*question.Question) tea.Cmd {
	now := p.now()
	var when time.Time
	for _, q := range rows {
		if r := p.rows[q]; r != nil {
			if t := nextChange(r.item.WaitingSince, now); when.IsZero() || t.Before(when) {
				when = t
			}
		}
	}
	if when.IsZero() || !a.at.IsZero() && !when.Before(a.at) {
		return nil
	}
	a.gen++
	a.at = when
	gen := a.gen
	return tea.Tick(when.Sub(now), func(time.Time) tea.Msg { return inboxAgeMsg{gen} })
}

// tick handles the timer's tick: the view redraws the ages, and the next
// change is waited for.
func (a *ageTimer) tick(msg inboxAgeMsg, p *inboxPanel, rows []*question.Question) tea.Cmd {
	if msg.gen != a.gen {
		return nil // a sooner one replaced it
	}
	a.at = time.Time{}
	return a.next(p, rows)
}
