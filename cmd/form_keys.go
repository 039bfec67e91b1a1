package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/elicit-dev/elicit/forms"
	"github.com/elicit-dev/elicit/internal/sanitize"
	"github.com/elicit-dev/elicit/question/schema"
)

// addFormKeysFlag adds --keys to `elicit form`: instead of the form, its
// property keys, the names an --answers file uses (an agent shows titles,
// and an answers file keyed by titles fills nothing).
func addFormKeysFlag(a *app, cmd *cobra.Command) {
	var keys bool
	cmd.Flags().BoolVar(&keys, "keys", false, "print the form's property keys (what --answers names) with their kinds, titles and values, and ask nothing")
	run := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if !keys {
			return run(c, args)
		}
		if c.Flags().Changed("answers") {
			return usageError{err: errors.New("--keys asks nothing, so it takes no --answers: run elicit form --keys FILE, then elicit form FILE --answers ANSWERS"), cmd: c}
		}
		s, err := readFormSchema(args, a.stdin)
		if err != nil {
			return usageError{err: err, cmd: c}
		}
		writeFormKeys(textOut(a.stdout), s)
		return nil
	}
}

// readFormSchema reads the schema of `elicit form [FILE|-]`.
func readFormSchema(args []string, stdin io.Reader) (*schema.Schema, error) {
	var raw []byte
	var err error
	if len(args) == 0 || args[0] == "-" {
		raw, err = io.ReadAll(stdin)
	} else {
		raw, err = os.ReadFile(args[0])
	}
	if err != nil {
		return nil, err
	}
	s, _, err := forms.ParseRequest(raw)
	return s, err
}

// writeFormKeys prints one line a property, tab-separated: the key (as a
// JSON string when it holds a character a line cannot show), the kind
// (with its format), required or optional, the title, and the values a
// select takes.
func writeFormKeys(w io.Writer, s *schema.Schema) {
	for _, f := range s.Fields {
		key := f.Key
		if q := strconv.Quote(key); q != `"`+key+`"` || sanitize.Line(key) != key || strings.ContainsAny(key, " \t") {
			key = q
		}
		kind := f.Kind.String()
		if format := firstOf(string(f.Format), f.FormatAnnotation); format != "" {
			kind += " (" + format + ")"
		}
		need := "optional"
		if f.Required {
			need = "required"
		}
		title := ""
		if f.Title != "" {
			title = sanitize.Line(f.Title)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", key, kind, need, title, keyValues(f))
	}
}

// keyValues says what a select, a multi-select or a const takes, by the
// values an answers file gives (an option's title beside its value when
// they differ).
func keyValues(f *schema.Field) string {
	var opts []string
	for _, o := range f.Options {
		v := sanitize.Line(o.Value)
		if o.Title != "" && o.Title != o.Value {
			v += " (" + sanitize.Line(o.Title) + ")"
		}
		opts = append(opts, v)
	}
	switch {
	case f.Kind == schema.KindSelect:
		return "one of: " + strings.Join(opts, ", ")
	case f.Kind == schema.KindMultiSelect:
		return "any of: " + strings.Join(opts, ", ")
	case f.Kind == schema.KindConst:
		return "always: " + sanitize.Line(fmt.Sprint(f.Const))
	case f.OtherOf != "":
		return "the other text of " + f.OtherOf
	}
	return ""
}
