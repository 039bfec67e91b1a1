package schema

import "fmt"

// Hints returns short, sanitized phrases that tell the user what the field
// accepts, such as "3 to 50 characters", "whole number", "between 0 and
// 100", "email address", "YYYY-MM-DD" or "pick 1 to 3".
func (f *Field) Hints() []string {
	var h []string
	switch f.Kind {
	case KindString:
		h = f.textHints(h)
	case KindInteger, KindNumber:
		if f.Kind == KindInteger {
			h = append(h, "whole number")
		}
		lo, hi := f.lowerText(), f.upperText()
		switch {
		case lo != "" && hi != "" && f.xmin == nil && f.xmax == nil:
			h = append(h, fmt.Sprintf("between %s and %s", f.min.text, f.max.text))
		case lo != "" && hi != "":
			h = append(h, lo+" and "+hi)
		case lo != "":
			h = append(h, lo)
		case hi != "":
			h = append(h, hi)
		}
	case KindMultiSelect:
		if s := rangeHint(f.MinItems, f.MaxItems, ""); s != "" {
			h = append(h, "pick "+s)
		}
	case KindList:
		h = append(h, "one a line")
		if s := rangeHint(f.MinItems, f.MaxItems, "line"); s != "" {
			h = append(h, s)
		}
		if f.Item != nil {
			for _, ih := range f.Item.textHints(nil) {
				h = append(h, "each "+ih)
			}
		}
	case KindConst:
		h = append(h, "fixed value: "+constText(f.Const))
	}
	return h
}

// textHints are the hints of free text: length, format, pattern. The
// pattern itself is never shown here (PatternText shows it on request).
func (f *Field) textHints(h []string) []string {
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
	switch {
	case f.PatternSkipped:
		h = append(h, "a required format that cannot be checked here")
	case f.Pattern != "":
		h = append(h, "must match the required format")
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
