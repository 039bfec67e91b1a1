package schema

import (
	"fmt"

	"github.com/elicit-dev/elicit/internal/sanitize"
)

// Hints returns short, sanitized phrases that tell the user what the field
// accepts, such as "3 to 50 characters", "whole number", "between 0 and
// 100", "email address", "YYYY-MM-DD" or "pick 1 to 3".
func (f *Field) Hints() []string {
	var h []string
	switch f.Kind {
	case KindString:
		if s := rangeHint(f.MinLength, f.MaxLength, "character"); s != "" {
			h = append(h, s)
		}
		switch f.Format {
		case FormatEmail:
			h = append(h, "email address")
		case FormatURI:
			h = append(h, "URI, such as https://example.com")
		case FormatDate:
			h = append(h, "YYYY-MM-DD")
		case FormatDateTime:
			h = append(h, "date and time, such as 2026-05-01T09:30:00Z")
		}
		if f.Pattern != "" {
			p := sanitize.Line(f.Pattern)
			if f.PatternSkipped {
				h = append(h, "pattern "+p+" not checked here (not supported by Go's regexp)")
			} else {
				h = append(h, "must match "+p)
			}
		}
	case KindInteger, KindNumber:
		if f.Kind == KindInteger {
			h = append(h, "whole number")
		}
		switch {
		case f.Minimum != nil && f.Maximum != nil:
			h = append(h, fmt.Sprintf("between %s and %s", FormatNumber(*f.Minimum), FormatNumber(*f.Maximum)))
		case f.Minimum != nil:
			h = append(h, "at least "+FormatNumber(*f.Minimum))
		case f.Maximum != nil:
			h = append(h, "at most "+FormatNumber(*f.Maximum))
		}
	case KindMultiSelect:
		if s := rangeHint(f.MinItems, f.MaxItems, ""); s != "" {
			h = append(h, "pick "+s)
		}
	}
	return h
}

// rangeHint writes "3 to 50 characters", "at least 3 characters", "at most
// 1 character" or "exactly 2"; unit "" leaves the noun out.
func rangeHint(min, max *int, unit string) string {
	noun := func(n int) string {
		if unit == "" {
			return fmt.Sprint(n)
		}
		return plural(n, unit)
	}
	switch {
	case min != nil && max != nil && *min == *max:
		return "exactly " + noun(*max)
	case min != nil && max != nil && *min > 0:
		if unit == "" {
			return fmt.Sprintf("%d to %d", *min, *max)
		}
		return fmt.Sprintf("%d to %s", *min, noun(*max))
	case max != nil:
		return "at most " + noun(*max)
	case min != nil && *min > 0:
		return "at least " + noun(*min)
	}
	return ""
}
