package urlconsent

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"rsc.io/qr"
	"rsc.io/qr/coding"
)

// quietZone is the light margin around a QR code, in modules, as the
// standard asks: without it phones often fail to find the code.
const quietZone = 4

// qrLevel is the error correction of the codes drawn: L, the lowest. A
// code on a screen is not smudged or torn, and L gives the smallest code
// for a URL (the one most likely to fit a terminal) and holds the longest
// (2,953 bytes).
const qrLevel = qr.L

// qrCapacity is the most bytes a QR code holds (version 40 at level L, as
// bytes): a longer URL cannot be shown as one.
var qrCapacity = coding.Version(coding.MaxVersion).DataBytes(coding.Level(qrLevel)) - 3 // mode and 16-bit count

// errQRTooLong is returned for a URL longer than any QR code holds.
var errQRTooLong = errors.New("too long for a QR code")

// qrCode draws text (the exact URL, never a shortened or re-encoded form) as a
// QR code for a phone to scan, two modules a row with the half blocks
// ▀ ▄ █, inside a quiet zone. The code comes from rsc.io/qr (level L); only
// the drawing is ours. With colour (plain false) the code is black on
// white whatever the terminal's colours; plain draws light modules in the
// terminal's text colour, which suits a dark background. A text longer
// than any code holds gives an error wrapping errQRTooLong.
func qrCode(text string, plain bool) ([]string, error) {
	code, err := qr.Encode(text, qrLevel)
	if err != nil {
		if len(text) > qrCapacity { // no version holds it (the library's only failure)
			return nil, fmt.Errorf("%w: %d bytes, and the largest code holds %d", errQRTooLong, len(text), qrCapacity)
		}
		return nil, err
	}
	n := code.Size + 2*quietZone
	light := func(x, y int) bool {
		x, y = x-quietZone, y-quietZone
		if x < 0 || y < 0 || x >= code.Size || y >= code.Size {
			return true
		}
		return !code.Black(x, y)
	}
	st := lipgloss.NewStyle().Foreground(lipgloss.Color("#FFFFFF")).Background(lipgloss.Color("#000000"))
	var lines []string
	for y := 0; y < n; y += 2 {
		var b strings.Builder
		for x := 0; x < n; x++ {
			top, bottom := light(x, y), y+1 < n && light(x, y+1)
			b.WriteString(halfBlock(top, bottom))
		}
		if plain {
			lines = append(lines, b.String())
		} else {
			lines = append(lines, st.Render(b.String()))
		}
	}
	return lines, nil
}

// halfBlock is the character for two stacked modules, drawing the light
// ones in the foreground colour.
func halfBlock(top, bottom bool) string {
	switch {
	case top && bottom:
		return "█"
	case top:
		return "▀"
	case bottom:
		return "▄"
	}
	return " "
}

// QRCode draws text as a QR code for a terminal, one string a row: the
// same drawing the consent screen shows (level L, quiet zone, half
// blocks; plain uses the terminal's own colours). `elicit inbox pair`
// draws its pairing link with it. A text longer than any code holds is
// an error.
func QRCode(text string, plain bool) ([]string, error) { return qrCode(text, plain) }
