// Package theme holds elicit's one palette and every style built from it:
// lipgloss styles for the session screen and the huh theme for forms, for
// a dark or a light background, and without colour when NO_COLOR is set.
//
//	th := theme.New(lipgloss.HasDarkBackground(os.Stdin, os.Stderr), theme.NoColor())
//	fmt.Fprintln(os.Stderr, th.Accent.Render("hello"))
//
// Pass the same *Theme to forms and urlconsent so a host's screen, its
// forms and its consent screens match.
package theme
