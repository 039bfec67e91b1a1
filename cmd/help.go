package cmd

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"charm.land/fang/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// fang v2.0.1 draws every flag in one list and sets the root's help
// function inside fang.Execute, after the tree is built. The grouped help
// wraps fang's: fang draws the description, usage, examples and commands
// with every flag hidden, and the flags follow, one section per group, in
// fang's style. The wrapper is installed when help is asked for (the -h
// flag's Set, or the help command), which is the first moment fang's
// function is in place.

// helpFlag is -h/--help: a bool flag to cobra, whose Set installs the
// grouped help.
type helpFlag struct {
	on   bool
	a    *app
	root *cobra.Command
}

func (h *helpFlag) String() string { return strconv.FormatBool(h.on) }
func (h *helpFlag) Type() string   { return "bool" }

// Set records the flag and, when it is on, installs the grouped help.
func (h *helpFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	h.on = v
	if v {
		h.a.installHelp(h.root)
	}
	return nil
}

// addHelpFlag adds -h/--help to root and, as a persistent flag, to every
// command under it.
func addHelpFlag(a *app, root *cobra.Command) {
	f := root.PersistentFlags().VarPF(&helpFlag{a: a, root: root}, "help", "h", "show this help")
	f.NoOptDefVal = "true"
}

// installHelp wraps the root's help function (fang's, under Execute) once.
func (a *app) installHelp(root *cobra.Command) {
	if a.helpReady {
		return
	}
	a.helpReady = true
	inner := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) { a.groupedHelp(c, args, inner) })
}

// help shows c's help, as -h would: for a command that needs a
// subcommand and got none.
func (a *app) help(c *cobra.Command) error {
	a.installHelp(c.Root())
	c.InitDefaultHelpFlag()
	return c.Help()
}

// newHelpCommand is `elicit help [COMMAND]`.
func newHelpCommand(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "help [COMMAND]",
		Short:   "Help about any command",
		Example: "elicit help\nelicit help form",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			var out []cobra.Completion
			cmd, _, err := c.Root().Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					out = append(out, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			root := cmd.Root()
			target, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 {
				return usagef("unknown help topic %q%s", strings.Join(args, " "), suggestion(root.SuggestionsFor(args[len(args)-1])))
			}
			return a.help(target)
		},
	}
}

// suggestion is cobra's "Did you mean this?" for names, or "".
func suggestion(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return "\n\nDid you mean this?\n\t" + strings.Join(names, "\n\t")
}

// helpGroup is one section of flags in help.
type helpGroup struct {
	title string
	flags []*pflag.Flag
}

// flagGroups sorts c's visible flags into their help groups: groupOrder
// first, other groups as they come, the flags of no group last.
func flagGroups(c *cobra.Command) []helpGroup {
	var groups []helpGroup
	index := map[string]int{}
	for _, g := range groupOrder {
		index[g] = len(groups)
		groups = append(groups, helpGroup{title: g})
	}
	var plain []*pflag.Flag
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		g := f.Annotations[groupAnnotation]
		if len(g) == 0 {
			plain = append(plain, f)
			return
		}
		i, ok := index[g[0]]
		if !ok {
			i = len(groups)
			index[g[0]] = i
			groups = append(groups, helpGroup{title: g[0]})
		}
		groups[i].flags = append(groups[i].flags, f)
	})
	groups = append(groups, helpGroup{title: "flags", flags: plain})
	return slices.DeleteFunc(groups, func(g helpGroup) bool { return len(g.flags) == 0 })
}

// groupedHelp draws fang's help of c without its flags, then the flags by
// group.
func (a *app) groupedHelp(c *cobra.Command, args []string, inner func(*cobra.Command, []string)) {
	groups := flagGroups(c)
	var hidden []*pflag.Flag
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			f.Hidden = true
			hidden = append(hidden, f)
		}
	})
	// Piped help loses the spaces fang pads its lines with; a terminal
	// keeps its writer, whose Fd fang's colour detection looks for.
	out := c.OutOrStdout()
	if _, tty := out.(interface{ Fd() uintptr }); !tty {
		trim := &trimWriter{w: out}
		defer trim.Flush()
		c.SetOut(trim)
		defer c.SetOut(out)
	}
	inner(c, args)
	for _, f := range hidden {
		f.Hidden = false
	}
	w := colorprofile.NewWriter(c.OutOrStdout(), os.Environ())
	writeFlagGroups(w, a.helpStyles(), groups)
}

// helpStyles are fang's, from the colour scheme fang chose for this help.
type helpStyles struct {
	title, flag, placeholder, desc, def lipgloss.Style
}

func (a *app) helpStyles() helpStyles {
	cs := fang.DefaultColorScheme(lipgloss.LightDark(true))
	if a.scheme != nil {
		cs = *a.scheme
	}
	return helpStyles{
		title:       lipgloss.NewStyle().Bold(true).Foreground(cs.Title).Transform(strings.ToUpper).Padding(1, 0).Margin(0, 2),
		flag:        lipgloss.NewStyle().Foreground(cs.Flag),
		placeholder: lipgloss.NewStyle().Foreground(cs.DimmedArgument),
		desc:        lipgloss.NewStyle().Foreground(cs.Description),
		def:         lipgloss.NewStyle().Foreground(cs.FlagDefault),
	}
}

// writeFlagGroups draws the groups as fang draws its flags: the names
// indented by four, the descriptions in a column, wrapped to the width.
func writeFlagGroups(w *colorprofile.Writer, st helpStyles, groups []helpGroup) {
	type row struct{ key, desc string }
	rows := make([][]row, len(groups))
	keyWidth := 10
	for i, g := range groups {
		for _, f := range g.flags {
			name, usage := pflag.UnquoteUsage(f)
			key := "--" + f.Name
			if f.Shorthand != "" {
				key = "-" + f.Shorthand + " " + key
			}
			key = st.flag.Render(key)
			if name != "" && f.NoOptDefVal == "" {
				key += " " + st.placeholder.Render(name)
			}
			desc := st.desc.Render(titleFirstWord(usage))
			if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "[]" {
				desc += st.def.Render(" (" + d + ")")
			}
			rows[i] = append(rows[i], row{key, desc})
			keyWidth = max(keyWidth, lipgloss.Width(key)+2)
		}
	}
	descWidth := max(helpWidth()-4-keyWidth, 20)
	for i, g := range groups {
		title := st.title
		if i == 0 { // fang's help ends with a blank line already
			title = title.PaddingTop(0)
		}
		fmt.Fprintln(w, title.Render(g.title))
		for _, r := range rows[i] {
			desc := lipgloss.NewStyle().Width(descWidth).Render(r.desc)
			block := lipgloss.JoinHorizontal(lipgloss.Top,
				strings.Repeat(" ", 4)+r.key+strings.Repeat(" ", keyWidth-lipgloss.Width(r.key)), desc)
			for line := range strings.Lines(block) {
				fmt.Fprintln(w, strings.TrimRight(line, " \n"))
			}
		}
	}
	fmt.Fprintln(w)
}

// helpWidth is fang's: the terminal's width up to 120, 120 when stdout is
// no terminal, or __FANG_TEST_WIDTH.
var helpWidth = sync.OnceValue(func() int {
	if s := os.Getenv("__FANG_TEST_WIDTH"); s != "" {
		if w, err := strconv.Atoi(s); err == nil {
			return w
		}
	}
	w, _, err := term.GetSize(os.Stdout.Fd())
	if err != nil {
		return 120
	}
	return min(w, 120)
})

// titleFirstWord capitalises the first word, as fang does to flag
// descriptions.
func titleFirstWord(s string) string {
	start := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsSpace(r) })
	if start < 0 {
		return s
	}
	end := strings.IndexFunc(s[start:], unicode.IsSpace)
	if end < 0 {
		end = len(s) - start
	}
	end += start
	return s[:start] + cases.Title(language.AmericanEnglish).String(s[start:end]) + s[end:]
}
