package schema

import (
	"encoding/json"
	"fmt"
)

// parseNumber reads a number or integer's bounds exactly: minimum and
// maximum (inclusive), exclusiveMinimum and exclusiveMaximum (strict, as
// zod's positive() and pydantic's gt/lt emit them; draft 4's boolean
// spelling too).
func parseNumber(f *Field, m *node) error {
	var err error
	if f.min, err = optBound(m, "minimum"); err != nil {
		return err
	}
	if f.max, err = optBound(m, "maximum"); err != nil {
		return err
	}
	for _, k := range []string{"exclusiveMinimum", "exclusiveMaximum"} {
		n := m.get(k)
		if n == nil {
			continue
		}
		// Draft 4 spelt these as booleans that make minimum or maximum
		// strict (null reads as false, as encoding/json reads it).
		if flag, ok := n.asBool(); ok {
			if flag && k == "exclusiveMinimum" {
				f.xmin, f.min = f.min, nil
			} else if flag {
				f.xmax, f.max = f.max, nil
			}
			continue
		}
		b, err := optBound(m, k)
		if err != nil {
			return err
		}
		if k == "exclusiveMinimum" {
			f.xmin = b
		} else {
			f.xmax = b
		}
	}
	lo, hi := f.lower(), f.upper()
	if lo != nil && hi != nil {
		c := lo.d.cmp(hi.d)
		if c > 0 || c == 0 && (lo == f.xmin || hi == f.xmax) {
			return fmt.Errorf("no number is both %s and %s", f.lowerText(), f.upperText())
		}
	}
	f.Minimum, f.Maximum = boundText(f.min), boundText(f.max)
	f.ExclusiveMinimum, f.ExclusiveMaximum = boundText(f.xmin), boundText(f.xmax)
	return nil
}

func boundText(b *bound) *json.Number {
	if b == nil {
		return nil
	}
	t := b.text
	return &t
}

// lower and upper are the tighter of the inclusive and strict bounds.
func (f *Field) lower() *bound {
	if f.min != nil && f.xmin != nil {
		if f.xmin.d.cmp(f.min.d) >= 0 {
			return f.xmin
		}
		return f.min
	}
	if f.xmin != nil {
		return f.xmin
	}
	return f.min
}

func (f *Field) upper() *bound {
	if f.max != nil && f.xmax != nil {
		if f.xmax.d.cmp(f.max.d) <= 0 {
			return f.xmax
		}
		return f.max
	}
	if f.xmax != nil {
		return f.xmax
	}
	return f.max
}

// lowerText is "at least 1" or "above 0"; upperText "at most 9" or
// "below 10".
func (f *Field) lowerText() string {
	switch b := f.lower(); {
	case b == nil:
		return ""
	case b == f.xmin:
		return "above " + b.text.String()
	default:
		return "at least " + b.text.String()
	}
}

func (f *Field) upperText() string {
	switch b := f.upper(); {
	case b == nil:
		return ""
	case b == f.xmax:
		return "below " + b.text.String()
	default:
		return "at most " + b.text.String()
	}
}
