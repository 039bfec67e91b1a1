package theme_test

import (
	"fmt"
	"image/color"
	"os"

	"charm.land/lipgloss/v2"

	"github.com/elicit-dev/elicit/theme"
)

// hex writes a colour as #RRGGBB, or "none" for the terminal's default.
func hex(c color.Color) string {
	if c == nil {
		return "none"
	}
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}

// One palette, read well on a dark and on a light background; with
// NO_COLOR every colour is dropped but bold and reverse still show.
func Example() {
	dark, light, plain := theme.New(true, false), theme.New(false, false), theme.New(true, true)
	fmt.Println("accent:", hex(dark.P.Accent), "on dark,", hex(light.P.Accent), "on light,", hex(plain.P.Accent), "with NO_COLOR")
	fmt.Printf("%q\n", plain.Bold.Render("still bold"))
	fmt.Printf("%q\n", plain.Muted.Render("no colour"))
	// Output:
	// accent: #9D8CFF on dark, #5A4FCF on light, none with NO_COLOR
	// "\x1b[1mstill bold\x1b[m"
	// "no colour"
}

// Pick the palette from the terminal the program draws on, and from
// NO_COLOR. (A bubbletea program learns the background from
// tea.BackgroundColorMsg instead, without a blocking query.)
func ExampleNew() {
	th := theme.New(lipgloss.HasDarkBackground(os.Stdin, os.Stderr), theme.NoColor())
	fmt.Fprintln(os.Stderr, th.Title.Render("Deploy"), th.Muted.Render("to staging"))
}
