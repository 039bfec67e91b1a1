package cmd

import (
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// newManCommand is `elicit man`: the man page, elicit(1), in roff. The
// release archives ship it as manpages/elicit.1.gz.
func newManCommand(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "man",
		Short:   "Print the man page, elicit(1), in roff",
		Long:    "Prints the man page in roff: man -l <(elicit man) reads it; the release archives hold it as manpages/elicit.1.gz. SOURCE_DATE_EPOCH sets its date.",
		Example: "elicit man | man -l -\nelicit man | gzip -9n > ~/.local/share/man/man1/elicit.1.gz",
		Hidden:  true,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprint(textOut(a.stdout), manPage(cmd.Root(), manDate()))
			return err
		},
	}
}

// manDate is the page's date: SOURCE_DATE_EPOCH (reproducible builds),
// else the commit's time, else today.
func manDate() time.Time {
	if s, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil {
		return time.Unix(s, 0).UTC()
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if t, err := time.Parse(time.RFC3339, s.Value); s.Key == "vcs.time" && err == nil {
				return t.UTC()
			}
		}
	}
	return time.Now().UTC()
}

// manPage writes the page of the tree under root.
func manPage(root *cobra.Command, date time.Time) string {
	var p roff
	source := "elicit"
	if v := readVersion(); v.Version != unknownVersion {
		source += " " + v.Version
	}
	p.macro("TH", "ELICIT", "1", date.Format("2006-01-02"), esc(source), "User Commands")
	p.macro("SH", "NAME")
	p.textLine(`elicit \- ` + esc(strings.ToLower(root.Short[:1])+root.Short[1:]))

	p.macro("SH", "SYNOPSIS")
	p.fill(bold("elicit") + " [" + italic("OPTIONS") + "] [" + italic("AGENT") + "]")
	p.macro("br")
	p.fill(bold("elicit") + " [" + italic("OPTIONS") + "] " + bold("--") + " " + italic("COMMAND") + " [" + italic("ARG") + " ...]")
	walkVisible(root, func(c *cobra.Command) {
		// A command whose subcommands do its work (config, history: no
		// flags of its own) is listed through them; one that also works
		// alone (elicit inbox, its screen) is listed itself too.
		if c == root || c.HasAvailableSubCommands() && !c.Flags().HasAvailableFlags() {
			return
		}
		p.macro("br")
		p.fill(bold(c.CommandPath()) + " " + useArgs(c))
	})

	p.macro("SH", "DESCRIPTION")
	p.paragraphs(rootDescription)

	p.macro("SH", "OPTIONS")
	for _, g := range flagGroups(root) {
		p.macro("SS", esc(titleFirstWord(g.title)))
		for _, f := range g.flags {
			manFlag(&p, f)
		}
	}

	p.macro("SH", "COMMANDS")
	walkVisible(root, func(c *cobra.Command) {
		if c != root {
			manCommand(&p, c)
		}
	})

	p.macro("SH", "EXIT STATUS")
	manList(&p, manExitStatus)
	p.macro("SH", "ENVIRONMENT")
	manList(&p, manEnvironment)
	p.macro("SH", "FILES")
	manList(&p, manFiles)
	p.macro("SH", "EXAMPLES")
	for i, ex := range strings.Split(strings.TrimSpace(rootExample)+"\n\n"+strings.TrimSpace(manExamples), "\n\n") {
		if i > 0 {
			p.macro("PP")
		}
		manExample(&p, strings.TrimSpace(ex))
	}
	p.macro("SH", "SEE ALSO")
	p.fill(esc("elicit --help, and elicit COMMAND --help, say the same with examples; the README of " +
		"https://github.com/elicit-dev/elicit says more. The Agent Client Protocol: https://agentclientprotocol.com"))
	return p.String()
}

// walkVisible calls fn on c and every command under it that help shows,
// depth first, in help's order.
func walkVisible(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() {
			walkVisible(s, fn)
		}
	}
}

// useArgs is what follows a command's name in its Use line, as roff: the
// placeholders (upper-case words) in italics, -- in bold.
func useArgs(c *cobra.Command) string {
	_, rest, _ := strings.Cut(c.Use, " ")
	var out []string
	if c.HasAvailableFlags() {
		out = append(out, "["+italic("OPTIONS")+"]")
	}
	for _, w := range strings.Fields(rest) {
		if w == "--" || w == "[--" {
			out = append(out, strings.TrimSuffix(w, "--")+bold("--"))
			continue
		}
		var b strings.Builder
		start := -1
		flush := func(end int) {
			if start >= 0 {
				b.WriteString(italic(w[start:end]))
				start = -1
			}
		}
		for i := 0; i < len(w); i++ {
			ch := w[i]
			if ch >= 'A' && ch <= 'Z' || ch == '_' || start >= 0 && ch >= '0' && ch <= '9' {
				if start < 0 {
					start = i
				}
				continue
			}
			flush(i)
			b.WriteString(esc(string(ch)))
		}
		flush(len(w))
		out = append(out, b.String())
	}
	return strings.Join(out, " ")
}

// flagKey is a flag as the page names it: "-p, --prompt TEXT".
func flagKey(f *pflag.Flag) string {
	name, _ := pflag.UnquoteUsage(f)
	key := bold("--" + f.Name)
	if f.Shorthand != "" {
		key = bold("-"+f.Shorthand) + ", " + key
	}
	if name != "" && f.NoOptDefVal == "" {
		key += " " + italic(name)
	}
	return key
}

// flagText is a flag's description, its default added as help adds it.
func flagText(f *pflag.Flag) string {
	_, usage := pflag.UnquoteUsage(f)
	text := titleFirstWord(usage)
	if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "[]" && f.NoOptDefVal == "" {
		text += " (default " + d + ")"
	}
	return text
}

// manFlag writes one flag as a tagged paragraph.
func manFlag(p *roff, f *pflag.Flag) {
	p.macro("TP")
	p.textLine(flagKey(f))
	p.fill(esc(flagText(f)))
}

// manCommand writes one subcommand: its use, what it does, and its
// flags: in full those it has alone, by name those that mean what they
// mean on a command above it.
func manCommand(p *roff, c *cobra.Command) {
	p.macro("SS", c.CommandPath()+" "+useArgs(c))
	text := c.Long
	if text == "" {
		text = c.Short + "."
	}
	p.paragraphs(text)
	var shared []string
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		if sameAbove(c, f) {
			shared = append(shared, bold("--"+f.Name))
			return
		}
		manFlag(p, f)
	})
	if len(shared) > 0 {
		p.macro("PP")
		p.fill("Also " + strings.Join(shared, ", ") + esc(", as above."))
	}
}

// sameAbove reports a flag that a command above c has with the same
// meaning, and so is described there.
func sameAbove(c *cobra.Command, f *pflag.Flag) bool {
	for up := c.Parent(); up != nil; up = up.Parent() {
		if g := up.Flags().Lookup(f.Name); g != nil && g.Usage == f.Usage && !g.Hidden {
			return true
		}
	}
	return false
}

// manEntry is one item of a list section: a tag and its text.
type manEntry struct{ tag, text string }

// manList writes entries as tagged paragraphs; tags are roff text.
func manList(p *roff, entries []manEntry) {
	for _, e := range entries {
		p.macro("TP")
		p.textLine(e.tag)
		p.fill(esc(e.text))
	}
}

// manExample writes one example: its comment lines as text, its command
// lines literal.
func manExample(p *roff, ex string) {
	var comment, code []string
	for _, l := range strings.Split(ex, "\n") {
		if c, ok := strings.CutPrefix(l, "# "); ok && len(code) == 0 {
			comment = append(comment, c)
		} else {
			code = append(code, l)
		}
	}
	p.fill(esc(strings.Join(comment, " ")))
	p.example(strings.Join(code, "\n"))
}
